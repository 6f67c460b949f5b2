import { Test } from '@nestjs/testing';
import { DataSource, QueryFailedError } from 'typeorm';
import { AuditTrail } from '../audit/audit-trail';
import type { AssistantVersionEntity } from '../assistant/assistant-version.entity';
import { AssistantVersionService } from '../assistant/assistant-version.service';
import type { AssistantEntity } from '../assistant/assistant.entity';
import { AssistantService } from '../assistant/assistant.service';
import { applyAssistantDefaults } from '../assistant/utils/apply-assistant-defaults.util';
import type { ToolEntity } from '../tool/tool.entity';
import { ToolService } from '../tool/tool.service';
import { NO_SIDE_EFFECT } from '../tool/utils/apply-tool-defaults.util';
import { AssistantPublishService } from './assistant-publish.service';

const CREATED = new Date('2030-01-01T00:00:00.000Z');

const assistant: AssistantEntity = {
  assistant_id: 'a-1',
  user_id: 'u-1',
  ...applyAssistantDefaults({
    assistant_name: 'Support',
    assistant_description: 'd',
    assistant_prompt: 'p',
  }),
  created_at: CREATED,
  updated_at: CREATED,
};

const tool: ToolEntity = {
  tool_id: 't-1',
  user_id: 'u-1',
  tool_name: 'lookup',
  tool_description: 'd',
  tool_parameters: [],
  tool_execution_type: 'static_return',
  tool_execution_config: { value: 'ok' },
  ...NO_SIDE_EFFECT,
  created_at: CREATED,
  updated_at: CREATED,
};

/** Another publish took the number first: the unique (assistant_id, version) index refused it. */
const duplicate = new QueryFailedError(
  'INSERT INTO assistant_versions',
  [],
  Object.assign(new Error('Duplicate entry'), { code: 'ER_DUP_ENTRY' }),
);

async function setup(lastVersion: number | null) {
  const inserted: AssistantVersionEntity[] = [];
  const em = {
    getRepository: () => ({
      createQueryBuilder: () => ({
        select: jest.fn().mockReturnThis(),
        where: jest.fn().mockReturnThis(),
        getRawOne: jest.fn().mockResolvedValue({ max: lastVersion }),
      }),
    }),
    create: (_target: unknown, values: AssistantVersionEntity) => ({ ...values }),
    insert: jest.fn((_target: unknown, row: AssistantVersionEntity) => {
      inserted.push(row);
      return Promise.resolve();
    }),
  };
  const dataSource = {
    options: { type: 'sqlite' },
    transaction: jest.fn((work: (m: typeof em) => Promise<unknown>) => work(em)),
  };
  const assistants = { lockOwned: jest.fn().mockResolvedValue(assistant) };
  const tools = { attachedTo: jest.fn().mockResolvedValue([tool]) };
  const moduleRef = await Test.createTestingModule({
    providers: [
      { provide: AuditTrail, useValue: { record: jest.fn() } },
      // The real version store (numbering, snapshot, insert) over the mocked transaction.
      {
        provide: AssistantVersionService,
        useFactory: (audit: AuditTrail) =>
          new AssistantVersionService({} as never, {} as never, audit),
        inject: [AuditTrail],
      },
      AssistantPublishService,
      { provide: AssistantService, useValue: assistants },
      { provide: ToolService, useValue: tools },
      { provide: DataSource, useValue: dataSource },
    ],
  }).compile();
  return { service: moduleRef.get(AssistantPublishService), em, inserted, assistants };
}

describe(AssistantPublishService.name, () => {
  it('publishes the next number with the locked assistant and its tools as they are now', async () => {
    const { service, inserted, assistants } = await setup(2);

    const published = await service.publish('u-1', 'a-1', { note: 'launch' });

    expect(assistants.lockOwned).toHaveBeenCalledWith(expect.anything(), 'u-1', 'a-1');
    expect(published).toMatchObject({ assistant_id: 'a-1', version: 3, note: 'launch' });
    expect(inserted).toHaveLength(1);
    expect(inserted[0]).toMatchObject({
      user_id: 'u-1',
      version: 3,
      assistant: { assistant_name: 'Support', created_at: '2030-01-01T00:00:00.000Z' },
      tools: [
        {
          tool_id: 't-1',
          tool_name: 'lookup',
          tool_execution_type: 'static_return',
          tool_execution_config: { value: 'ok' },
        },
      ],
    });
    expect(inserted[0].tools[0]).not.toHaveProperty('user_id');
  });

  it('starts at version 1 and retries with the next number after losing a race', async () => {
    const { service, em } = await setup(null);
    em.insert.mockRejectedValueOnce(duplicate);

    const published = await service.publish('u-1', 'a-1', {});

    expect(em.insert).toHaveBeenCalledTimes(2);
    expect(published).toMatchObject({ version: 1, note: null });
  });

  it('gives up on the fifth lost race, and never retries another error', async () => {
    const lost = await setup(0);
    lost.em.insert.mockRejectedValue(duplicate);
    await expect(lost.service.publish('u-1', 'a-1', {})).rejects.toBe(duplicate);
    expect(lost.em.insert).toHaveBeenCalledTimes(5);

    const broken = await setup(0);
    const failure = new Error('connection lost');
    broken.em.insert.mockRejectedValue(failure);
    await expect(broken.service.publish('u-1', 'a-1', {})).rejects.toBe(failure);
    expect(broken.em.insert).toHaveBeenCalledTimes(1);
  });
});
