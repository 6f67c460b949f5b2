import { ConfigService } from '@nestjs/config';
import { Test } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { AuditTrail } from '../audit/audit-trail';
import { UrlGuard } from '../common/http/url-guard';
import { loadAppConfig } from '../config/app-config';
import { noSecrets } from '../secret/testing/no-secrets';
import { SecretReferences } from '../secret/secret-references';
import { AssistantDeletion } from './assistant-deletion';
import { AssistantToolsRepository } from './assistant-tools.repository';
import { AssistantViewCache } from './assistant-view.cache';
import { AssistantRepository } from './assistant.repository';
import { AssistantService } from './assistant.service';

async function setup(env: NodeJS.ProcessEnv = {}) {
  const em = { delete: jest.fn().mockResolvedValue({ affected: 1 }) };
  const assistants = {
    page: jest.fn().mockResolvedValue([]),
    countOwned: jest.fn().mockResolvedValue(0),
    findOwned: jest.fn().mockResolvedValue(null),
    findOwnedLean: jest.fn().mockResolvedValue(null),
    existsOwned: jest.fn().mockResolvedValue(false),
    lockOwned: jest.fn().mockResolvedValue([
      { assistant_id: 'a-1', user_id: 'u-1', created_at: new Date(0), updated_at: new Date(0) },
    ]),
    deleteOwned: jest.fn().mockResolvedValue(undefined),
  };
  const tools = {
    toolIdsOf: jest.fn().mockResolvedValue(new Map()),
    attachedIdsIn: jest.fn().mockResolvedValue([]),
    detachAssistant: jest.fn().mockResolvedValue(undefined),
  };
  const mappings = { deleted: jest.fn().mockResolvedValue(undefined) };
  const dataSource = {
    options: { type: 'sqlite' },
    transaction: jest.fn((work: (m: typeof em) => Promise<unknown>) => work(em)),
  };
  const moduleRef = await Test.createTestingModule({
    providers: [
      { provide: AuditTrail, useValue: { record: jest.fn() } },
      AssistantService,
      { provide: AssistantRepository, useValue: assistants },
      { provide: AssistantToolsRepository, useValue: tools },
      { provide: AssistantDeletion, useValue: mappings },
      { provide: DataSource, useValue: dataSource },
      { provide: UrlGuard, useValue: { assertPublicUrl: jest.fn() } },
      { provide: ConfigService, useValue: new ConfigService(loadAppConfig(env)) },
      { provide: SecretReferences, useValue: noSecrets() },
      // Reads through to the database every time (the cache has its own spec).
      {
        provide: AssistantViewCache,
        useValue: { get: (_key: string, load: () => Promise<unknown>) => load() },
      },
    ],
  }).compile();
  const service = moduleRef.get(AssistantService);
  return { service, em, assistants, tools, mappings, dataSource };
}

describe(AssistantService.name, () => {
  it('lists a page with its total, asking the tool module for the attached tool ids', async () => {
    const { service, assistants, tools } = await setup();
    assistants.countOwned.mockResolvedValue(7);
    const page = await service.list('u-1', { page: 2, limit: 5 });
    expect(assistants.page).toHaveBeenCalledWith('u-1', 5, 5);
    expect(tools.toolIdsOf).toHaveBeenCalledWith([]);
    expect(page).toEqual({ items: [], total: 7, page: 2, limit: 5 });
  });

  it("reports another user's (or a missing) assistant as 404", async () => {
    const { service } = await setup();
    await expect(service.details('u-1', 'a-x')).rejects.toMatchObject({ status: 404 });
    await expect(service.findOwned('u-1', 'a-x')).rejects.toMatchObject({ status: 404 });
    await expect(service.assertOwned('u-1', 'a-x')).rejects.toMatchObject({ status: 404 });
  });

  it('deletes in one transaction: lock, tool attachments, versions, mapping pins, then the row', async () => {
    const { service, em, assistants, tools, mappings, dataSource } = await setup();
    await expect(service.remove('u-1', 'a-1')).resolves.toEqual({ assistant_id: 'a-1' });
    expect(dataSource.transaction).toHaveBeenCalledTimes(1);
    expect(tools.detachAssistant).toHaveBeenCalledWith(em, 'a-1');
    expect(mappings.deleted).toHaveBeenCalledWith(em, 'a-1', 'u-1');
    expect(assistants.deleteOwned).toHaveBeenCalledWith(em, 'u-1', 'a-1');
    const order = [
      assistants.lockOwned,
      tools.detachAssistant,
      em.delete,
      mappings.deleted,
      assistants.deleteOwned,
    ].map((fn) => fn.mock.invocationCallOrder[0]);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it("refuses to delete another user's assistant (404) and touches nothing", async () => {
    const { service, em, assistants, tools, mappings } = await setup();
    assistants.lockOwned.mockResolvedValue([]);
    await expect(service.remove('u-1', 'a-x')).rejects.toMatchObject({ status: 404 });
    expect(tools.detachAssistant).not.toHaveBeenCalled();
    expect(em.delete).not.toHaveBeenCalled();
    expect(mappings.deleted).not.toHaveBeenCalled();
  });

  describe('render', () => {
    const template = (prompt: string, start: string | null = null) => ({
      assistant_id: 'a-1',
      user_id: 'u-1',
      assistant_prompt: prompt,
      assistant_start_instruction: start,
    });

    it('answers within MAX_RENDERED_PROMPT_BYTES', async () => {
      const { service, assistants } = await setup({ MAX_RENDERED_PROMPT_BYTES: '2048' });
      assistants.findOwned.mockResolvedValue(template('Hi {{context.v}}', 'Go'));
      await expect(
        service.render('u-1', 'a-1', { context: { v: 'x'.repeat(2045) } }),
      ).resolves.toEqual({
        assistant_id: 'a-1',
        prompt: `Hi ${'x'.repeat(2045)}`,
        start_instruction: 'Go',
        missing: [],
      });
    });

    it('is 400 naming the context and the limit when the render would pass it', async () => {
      const { service, assistants } = await setup({ MAX_RENDERED_PROMPT_BYTES: '2048' });
      assistants.findOwned.mockResolvedValue(
        template('{{context.v}}'.repeat(1000), '{{context.v}}'),
      );
      const error = await service
        .render('u-1', 'a-1', { context: { v: 'x'.repeat(100) } })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({
        status: 400,
        data: {
          errors: [
            {
              field: 'context',
              message: 'makes assistant_prompt longer than MAX_RENDERED_PROMPT_BYTES (2048 bytes)',
            },
          ],
        },
      });
    });

    it('names the call values when they alone make it too long', async () => {
      const { service, assistants } = await setup({ MAX_RENDERED_PROMPT_BYTES: '2048' });
      assistants.findOwned.mockResolvedValue(template('{{call.room_name}}'.repeat(100)));
      const error = await service
        .render('u-1', 'a-1', { context: { v: 1 }, call: { room_name: 'r'.repeat(255) } })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 400, data: { errors: [{ field: 'call' }] } });
    });
  });
});
