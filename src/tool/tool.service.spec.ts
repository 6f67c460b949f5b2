import { Test } from '@nestjs/testing';
import { DataSource, EntityManager } from 'typeorm';
import { AuditTrail } from '../audit/audit-trail';
import { AssistantRepository } from '../assistant/assistant.repository';
import { AppException } from '../common/errors/app.exception';
import { UrlGuard } from '../common/http/url-guard';
import { noSecrets } from '../secret/testing/no-secrets';
import { SecretReferences } from '../secret/secret-references';
import { AssistantToolsRepository } from '../assistant/assistant-tools.repository';
import type { CreateToolDto } from './dto/create-tool.dto';
import type { ToolEntity } from './tool.entity';
import { ToolRepository } from './tool.repository';
import { ToolService } from './tool.service';
import { NO_SIDE_EFFECT } from './utils/apply-tool-defaults.util';

const em = {} as EntityManager;

function tool(id: string, name: string): ToolEntity {
  return {
    tool_id: id,
    user_id: 'u-1',
    tool_name: name,
    tool_description: 'd',
    tool_parameters: [],
    tool_execution_type: 'static_return',
    tool_execution_config: { value: 'ok' },
    ...NO_SIDE_EFFECT,
    created_at: new Date('2030-01-01T00:00:00Z'),
    updated_at: new Date('2030-01-01T00:00:00Z'),
  };
}

async function setup() {
  const tools = {
    insert: jest.fn().mockResolvedValue(undefined),
    findOwned: jest.fn(),
    lockOwned: jest.fn().mockResolvedValue([]),
    findOwnedIn: jest.fn().mockResolvedValue([]),
    findInOrder: jest.fn().mockResolvedValue([]),
    deleteOwned: jest.fn().mockResolvedValue(undefined),
  };
  const links = {
    attachedIdsIn: jest.fn().mockResolvedValue([]),
    attach: jest.fn().mockResolvedValue(undefined),
    detach: jest.fn().mockResolvedValue(undefined),
    detachTool: jest.fn().mockResolvedValue([]),
  };
  const assistants = { lockOwned: jest.fn().mockResolvedValue([{ assistant_id: 'a-1' }]) };
  // SQLite-typed: runTransaction queues the work and hands it the manager.
  const dataSource = {
    options: { type: 'sqlite' },
    transaction: jest.fn((work: (m: EntityManager) => Promise<unknown>) => work(em)),
  };
  const urlGuard = { assertPublicUrl: jest.fn().mockResolvedValue(undefined) };
  const moduleRef = await Test.createTestingModule({
    providers: [
      { provide: AuditTrail, useValue: { record: jest.fn() } },
      ToolService,
      { provide: ToolRepository, useValue: tools },
      { provide: AssistantRepository, useValue: assistants },
      { provide: AssistantToolsRepository, useValue: links },
      { provide: DataSource, useValue: dataSource },
      { provide: UrlGuard, useValue: urlGuard },
      { provide: SecretReferences, useValue: noSecrets() },
    ],
  }).compile();
  const service = moduleRef.get(ToolService);
  return { service, tools, links, assistants, urlGuard };
}

describe(ToolService.name, () => {
  it('creates a tool for the caller with defaults applied, without a URL check for a static tool', async () => {
    const { service, tools, urlGuard } = await setup();
    const dto: CreateToolDto = {
      tool_name: 'lookup',
      tool_description: 'd',
      tool_execution_type: 'static_return',
      tool_execution_config: { value: 'ok' },
    };

    const created = await service.create('u-1', dto);

    expect(created.tool_name).toBe('lookup');
    expect(tools.insert).toHaveBeenCalledWith(
      expect.objectContaining({ tool_id: created.tool_id, user_id: 'u-1', tool_parameters: [] }),
      expect.anything(),
    );
    expect(urlGuard.assertPublicUrl).not.toHaveBeenCalled();
  });

  it("reports another user's (or a missing) tool as 404", async () => {
    const { service, tools } = await setup();
    tools.findOwned.mockResolvedValue(null);
    await expect(service.details('u-1', 't-x')).rejects.toMatchObject({ status: 404 });
  });

  it('attaches only the tools not yet attached, after locking tools then the assistant', async () => {
    const { service, tools, links, assistants } = await setup();
    tools.lockOwned.mockResolvedValue([tool('t-1', 'one'), tool('t-2', 'two')]);
    links.attachedIdsIn.mockResolvedValueOnce(['t-1']).mockResolvedValue(['t-1', 't-2']);
    tools.findInOrder.mockResolvedValue([tool('t-1', 'one')]);

    const result = await service.attach('u-1', 'a-1', ['t-1', 't-2']);

    expect(tools.lockOwned.mock.invocationCallOrder[0]).toBeLessThan(
      assistants.lockOwned.mock.invocationCallOrder[0],
    );
    expect(links.attach).toHaveBeenCalledWith(em, 'a-1', ['t-2']);
    expect(result).toEqual({ assistant_id: 'a-1', tool_ids: ['t-1', 't-2'] });
  });

  it("refuses to attach to an assistant that is not the caller's (404)", async () => {
    const { service, tools, links, assistants } = await setup();
    tools.lockOwned.mockResolvedValue([tool('t-1', 'one')]);
    assistants.lockOwned.mockResolvedValue([]);
    await expect(service.attach('u-1', 'a-x', ['t-1'])).rejects.toMatchObject({ status: 404 });
    expect(links.attach).not.toHaveBeenCalled();
  });

  it('refuses two tools of one name on an assistant (409) and names every unknown tool id (404)', async () => {
    const { service, tools } = await setup();
    tools.lockOwned.mockResolvedValue([tool('t-2', 'same')]);
    tools.findInOrder.mockResolvedValue([tool('t-1', 'same')]);
    await expect(service.attach('u-1', 'a-1', ['t-2'])).rejects.toMatchObject({ status: 409 });

    tools.lockOwned.mockResolvedValue([tool('t-1', 'one')]);
    const missing = await service.attach('u-1', 'a-1', ['t-1', 't-9']).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(AppException);
    expect(missing).toMatchObject({ status: 404, data: { tool_ids: ['t-9'] } });
  });

  it('deletes a tool and reports the assistants it was detached from', async () => {
    const { service, tools, links } = await setup();
    tools.lockOwned.mockResolvedValue([tool('t-1', 'one')]);
    links.detachTool.mockResolvedValue(['a-1', 'a-2']);
    await expect(service.remove('u-1', 't-1')).resolves.toEqual({
      tool_id: 't-1',
      detached_assistant_ids: ['a-1', 'a-2'],
    });
    expect(tools.deleteOwned).toHaveBeenCalledWith(em, 'u-1', 't-1');
  });
});
