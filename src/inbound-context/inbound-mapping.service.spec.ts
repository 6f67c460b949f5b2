import { Test } from '@nestjs/testing';
import { getRepositoryToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditTrail } from '../audit/audit-trail';
import { WebhookSecretsService } from '../auth/webhook-secrets.service';
import { AssistantVersionService } from '../assistant/assistant-version.service';
import { AssistantService } from '../assistant/assistant.service';
import { AppException } from '../common/errors/app.exception';
import type { AssignInboundDto } from './dto/assign-inbound.dto';
import { InboundContextStrategyEntity } from './inbound-context-strategy.entity';
import { InboundMappingEntity } from './inbound-mapping.entity';
import { InboundMappingService } from './inbound-mapping.service';
import { InboundPolicyChecks } from './inbound-policy-checks';
import { PhoneNumberHolders } from './phone-number-holders';
import { ProductionGate } from './production-gate';

function mapping(overrides: Partial<InboundMappingEntity> = {}): InboundMappingEntity {
  return {
    inbound_id: 'm-1',
    user_id: 'u-1',
    assistant_id: 'a-1',
    assistant_version: null,
    assistant_variants: null,
    policy: null,
    environment: null,
    guardrail: null,
    guardrail_state: null,
    inbound_context_strategy_id: null,
    service: 'exotel',
    inbound_config: { phone_number: '+91 80 1234 5678' },
    phone_number_normalized: '918012345678',
    is_active: true,
    active_phone_number: '918012345678',
    created_at: new Date('2030-01-01T00:00:00Z'),
    updated_at: new Date('2030-01-01T00:00:00Z'),
    ...overrides,
  };
}

async function setup() {
  const em = {
    insert: jest.fn().mockResolvedValue(undefined),
    update: jest.fn().mockResolvedValue({ affected: 1 }),
    delete: jest.fn().mockResolvedValue({ affected: 1 }),
    // The mapping, read (and locked) in the write's transaction; `m-x` is no mapping of the caller.
    findOne: jest.fn((_entity: unknown, options: { where: { inbound_id: string } }) =>
      Promise.resolve(options.where.inbound_id === 'm-x' ? null : mapping()),
    ),
    connection: { options: { type: 'sqlite' } },
  };
  const mappings = { findOne: jest.fn().mockResolvedValue(mapping()) };
  const assistants = { assertOwned: jest.fn().mockResolvedValue(undefined) };
  const versions = { assertExists: jest.fn().mockResolvedValue(undefined) };
  const strategies = { exists: jest.fn().mockResolvedValue(true) };
  const holders = {
    claim: jest.fn().mockResolvedValue(undefined),
    releaseIfUnused: jest.fn().mockResolvedValue(undefined),
  };
  const dataSource = {
    options: { type: 'sqlite' },
    transaction: jest.fn((work: (m: typeof em) => Promise<unknown>) => work(em)),
  };
  const webhookSecrets = { createWith: jest.fn().mockResolvedValue(undefined) };
  const moduleRef = await Test.createTestingModule({
    providers: [
      { provide: AuditTrail, useValue: { record: jest.fn() } },
      { provide: WebhookSecretsService, useValue: webhookSecrets },
      InboundMappingService,
      InboundPolicyChecks,
      ProductionGate,
      { provide: getRepositoryToken(InboundMappingEntity), useValue: mappings },
      { provide: AssistantService, useValue: assistants },
      { provide: AssistantVersionService, useValue: versions },
      { provide: getRepositoryToken(InboundContextStrategyEntity), useValue: strategies },
      { provide: DataSource, useValue: dataSource },
      { provide: PhoneNumberHolders, useValue: holders },
    ],
  }).compile();
  const service = moduleRef.get(InboundMappingService);
  return { service, em, mappings, assistants, versions, strategies, holders, webhookSecrets };
}

const assignDto = {
  assistant_id: 'a-1',
  service: 'exotel',
  inbound_config: { phone_number: '+91 80 1234 5678' },
} as AssignInboundDto;

describe(InboundMappingService.name, () => {
  it("assigns after the assistant module confirms the assistant is the caller's, claiming the number", async () => {
    const { service, em, assistants, holders } = await setup();
    await service.assign('u-1', assignDto);
    expect(assistants.assertOwned).toHaveBeenCalledWith('u-1', 'a-1');
    expect(holders.claim).toHaveBeenCalledWith(em, 'u-1', '918012345678');
    expect(em.insert).toHaveBeenCalledWith(
      expect.anything(),
      expect.objectContaining({
        user_id: 'u-1',
        assistant_id: 'a-1',
        active_phone_number: '918012345678',
      }),
    );
  });

  it("creates the owner's signing secret first in a write naming a strategy, and only then", async () => {
    const { service, em, holders, webhookSecrets } = await setup();
    await service.assign('u-1', assignDto);
    expect(webhookSecrets.createWith).not.toHaveBeenCalled();

    await service.assign('u-1', { ...assignDto, inbound_context_strategy_id: 's-1' });
    expect(webhookSecrets.createWith).toHaveBeenCalledWith(em, 'u-1');
    expect(webhookSecrets.createWith.mock.invocationCallOrder[0]).toBeLessThan(
      holders.claim.mock.invocationCallOrder[1],
    );

    await service.update('u-1', 'm-1', { inbound_context_strategy_id: 's-1' });
    expect(webhookSecrets.createWith).toHaveBeenCalledTimes(2);
    await service.update('u-1', 'm-1', { inbound_context_strategy_id: null });
    expect(webhookSecrets.createWith).toHaveBeenCalledTimes(2);
  });

  it("writes nothing when the assistant, its version or the strategy is not the caller's", async () => {
    const { service, em, assistants, versions, strategies } = await setup();
    assistants.assertOwned.mockRejectedValueOnce(AppException.notFound('Assistant'));
    await expect(service.assign('u-1', assignDto)).rejects.toMatchObject({ status: 404 });

    versions.assertExists.mockRejectedValueOnce(AppException.notFound('Assistant version'));
    await expect(
      service.assign('u-1', { ...assignDto, assistant_version: 3 }),
    ).rejects.toMatchObject({ message: 'Assistant version not found' });
    expect(versions.assertExists).toHaveBeenCalledWith('u-1', 'a-1', 3);

    strategies.exists.mockResolvedValueOnce(false);
    await expect(
      service.assign('u-1', {
        ...assignDto,
        inbound_context_strategy_id: 's-x',
      }),
    ).rejects.toMatchObject({ message: 'Inbound context strategy not found' });
    expect(em.insert).not.toHaveBeenCalled();
  });

  it('refuses a version pin on a mapping without an assistant (404)', async () => {
    const { service, mappings, em } = await setup();
    mappings.findOne.mockResolvedValue(mapping({ assistant_id: null }));
    await expect(service.update('u-1', 'm-1', { assistant_version: 2 })).rejects.toMatchObject({
      message: 'Assistant version not found',
    });
    expect(em.update).not.toHaveBeenCalled();
  });

  it('a new assistant without a version resets the pin', async () => {
    const { service, em } = await setup();
    await service.update('u-1', 'm-1', { assistant_id: 'a-2' });
    expect(em.update).toHaveBeenCalledWith(
      expect.anything(),
      { inbound_id: 'm-1', user_id: 'u-1' },
      expect.objectContaining({ assistant_id: 'a-2', assistant_version: null }),
    );
  });

  it('a moved number releases the old one', async () => {
    const { service, em, holders } = await setup();
    await service.update('u-1', 'm-1', {
      inbound_config: { phone_number: '+91 80 9999 0000' },
    });
    expect(holders.claim).toHaveBeenCalledWith(em, 'u-1', '918099990000');
    expect(holders.releaseIfUnused).toHaveBeenCalledWith(em, 'u-1', '918012345678');
  });

  it("deletes only the caller's mapping (404 otherwise)", async () => {
    const { service, em } = await setup();
    await expect(service.delete('u-1', 'm-x')).rejects.toMatchObject({ status: 404 });
    expect(em.delete).not.toHaveBeenCalled();
  });
});
