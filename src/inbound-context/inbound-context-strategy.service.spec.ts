import { Test } from '@nestjs/testing';
import { getRepositoryToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditTrail } from '../audit/audit-trail';
import { WebhookSecretsService } from '../auth/webhook-secrets.service';
import { UrlGuard } from '../common/http/url-guard';
import { noSecrets } from '../secret/testing/no-secrets';
import { SecretReferences } from '../secret/secret-references';
import { InboundContextStrategyEntity } from './inbound-context-strategy.entity';
import { InboundContextStrategyService } from './inbound-context-strategy.service';

const URL = 'https://crm.example.com/context';

function stored(): InboundContextStrategyEntity {
  return {
    strategy_id: 's-1',
    user_id: 'u-1',
    strategy_name: 'CRM',
    strategy_type: 'webhook',
    strategy_config: { url: URL, headers: { 'X-A': 'a' }, timeout_seconds: 3 },
    is_active: true,
    created_at: new Date('2030-01-01T00:00:00Z'),
    updated_at: new Date('2030-01-01T00:00:00Z'),
  };
}

async function setup(type: 'mysql' | 'sqlite' = 'mysql') {
  const qb = {
    connection: { options: { type } },
    where: jest.fn().mockReturnThis(),
    setLock: jest.fn().mockReturnThis(),
    getOne: jest.fn().mockResolvedValue(stored()),
  };
  const em = {
    getRepository: jest.fn(() => ({ createQueryBuilder: () => qb })),
    insert: jest.fn().mockResolvedValue(undefined),
    update: jest.fn().mockResolvedValue({ affected: 1 }),
    delete: jest.fn().mockResolvedValue({ affected: 1 }),
  };
  const dataSource = {
    options: { type },
    transaction: jest.fn((work: (m: typeof em) => Promise<unknown>) => work(em)),
  };
  const strategies = {
    findOne: jest.fn().mockResolvedValue(stored()),
    create: jest.fn((row: object) => ({ ...row })),
  };
  const urlGuard = { assertPublicUrl: jest.fn().mockResolvedValue(undefined) };
  const webhookSecrets = { createWith: jest.fn().mockResolvedValue(undefined) };
  const moduleRef = await Test.createTestingModule({
    providers: [
      { provide: AuditTrail, useValue: { record: jest.fn() } },
      { provide: WebhookSecretsService, useValue: webhookSecrets },
      InboundContextStrategyService,
      { provide: getRepositoryToken(InboundContextStrategyEntity), useValue: strategies },
      { provide: DataSource, useValue: dataSource },
      { provide: UrlGuard, useValue: urlGuard },
      { provide: SecretReferences, useValue: noSecrets() },
    ],
  }).compile();
  const service = moduleRef.get(InboundContextStrategyService);
  return { service, qb, em, dataSource, urlGuard, webhookSecrets };
}

describe(InboundContextStrategyService.name, () => {
  it('updates inside a transaction, reading the row locked on MySQL, and merges headers key by key', async () => {
    const { service, qb, em, dataSource, urlGuard } = await setup('mysql');

    await service.update('u-1', 's-1', {
      strategy_config: { headers: { 'X-B': 'b' } },
    });

    expect(dataSource.transaction).toHaveBeenCalledTimes(1);
    expect(qb.setLock).toHaveBeenCalledWith('pessimistic_write');
    expect(qb.setLock.mock.invocationCallOrder[0]).toBeLessThan(
      qb.getOne.mock.invocationCallOrder[0],
    );
    expect(em.update).toHaveBeenCalledWith(
      expect.anything(),
      { strategy_id: 's-1', user_id: 'u-1' },
      expect.objectContaining({
        strategy_config: { url: URL, headers: { 'X-A': 'a', 'X-B': 'b' }, timeout_seconds: 3 },
      }),
    );
    expect(urlGuard.assertPublicUrl).not.toHaveBeenCalled();
  });

  it("creates the owner's signing secret first in the new strategy's transaction", async () => {
    const { service, em, webhookSecrets } = await setup();
    await service.create('u-1', {
      strategy_name: 'CRM',
      strategy_type: 'webhook',
      strategy_config: { url: URL },
    });
    expect(webhookSecrets.createWith).toHaveBeenCalledWith(em, 'u-1');
    expect(webhookSecrets.createWith.mock.invocationCallOrder[0]).toBeLessThan(
      em.insert.mock.invocationCallOrder[0],
    );
  });

  it('takes no row lock on SQLite (its transactions already run one at a time)', async () => {
    const { service, qb } = await setup('sqlite');
    await service.update('u-1', 's-1', { strategy_name: 'Renamed' });
    expect(qb.setLock).not.toHaveBeenCalled();
  });

  it('checks a changed URL before writing it', async () => {
    const { service, em, urlGuard } = await setup();
    const next = 'https://other.example.com/context';
    await service.update('u-1', 's-1', {
      strategy_config: { url: next, headers: { 'X-A': 'a' } },
    });
    expect(urlGuard.assertPublicUrl).toHaveBeenCalledWith(next, 'strategy_config.url');
    expect(urlGuard.assertPublicUrl.mock.invocationCallOrder[0]).toBeLessThan(
      em.update.mock.invocationCallOrder[0],
    );
  });

  it("reports another user's (or a missing) strategy as 404 and writes nothing", async () => {
    const { service, qb, em } = await setup();
    qb.getOne.mockResolvedValue(null);
    await expect(service.update('u-1', 's-x', { strategy_name: 'x' })).rejects.toMatchObject({
      status: 404,
    });
    await expect(service.delete('u-1', 's-x')).rejects.toMatchObject({ status: 404 });
    expect(em.update).not.toHaveBeenCalled();
    expect(em.delete).not.toHaveBeenCalled();
  });

  it('deletes the strategy and reports how many mappings it was detached from', async () => {
    const { service, em } = await setup();
    em.update.mockResolvedValue({ affected: 2 });
    await expect(service.delete('u-1', 's-1')).resolves.toEqual({
      strategy_id: 's-1',
      detached_mappings: 2,
    });
  });
});
