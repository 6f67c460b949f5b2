import { Injectable } from '@nestjs/common';
import { AssistantService } from '../assistant/assistant.service';
import { CreateAssistantDto } from '../assistant/dto/create-assistant.dto';
import { UpdateAssistantDto } from '../assistant/dto/update-assistant.dto';
import { AppErrorCode, AppException, type FieldError } from '../common/errors/app.exception';
import { validateOrThrow } from '../common/validation/validate';
import { AssignInboundDto, UpdateInboundDto } from '../inbound-context/dto/assign-inbound.dto';
import { CreateStrategyDto } from '../inbound-context/dto/create-strategy.dto';
import { UpdateStrategyDto } from '../inbound-context/dto/update-strategy.dto';
import { InboundContextStrategyService } from '../inbound-context/inbound-context-strategy.service';
import { InboundMappingService } from '../inbound-context/inbound-mapping.service';
import { CreateToolDto } from '../tool/dto/create-tool.dto';
import { UpdateToolDto } from '../tool/dto/update-tool.dto';
import { ToolService } from '../tool/tool.service';
import type { AppliedIds } from './applied-ids';
import { routeBodyOf } from './bundle-input';
import type { BundleResource, BundleType } from './config-bundle.types';
import type { ConfigChange } from './config-diff';

/** A mapping's bundle fields as its route's body fields. */
const INBOUND_FIELDS: Record<string, string> = {
  assistant: 'assistant_id',
  strategy: 'inbound_context_strategy_id',
};

/**
 * Carries out one change of a plan through the resource's own service, exactly as its REST route
 * would (the same checks, the same audit entry). Run inside the apply's transaction, which each
 * service's own transaction joins.
 */
@Injectable()
export class ConfigApplySteps {
  constructor(
    private readonly tools: ToolService,
    private readonly strategies: InboundContextStrategyService,
    private readonly assistants: AssistantService,
    private readonly mappings: InboundMappingService,
  ) {}

  /** One change; an error names the resource (`bundle.<type>[<name>]`) as the plan would. */
  async run(
    userId: string,
    change: ConfigChange,
    resource: BundleResource | undefined,
    ids: AppliedIds,
  ): Promise<void> {
    try {
      if (change.action === 'delete') await this.remove(userId, change, ids);
      else if (change.action === 'create') await this.create(userId, change, resource!, ids);
      else await this.update(userId, change, resource!, ids);
    } catch (error) {
      throw named(error, `bundle.${change.resource_type}[${change.name}]`);
    }
  }

  private async create(
    userId: string,
    { resource_type: type, name }: ConfigChange,
    resource: BundleResource,
    ids: AppliedIds,
  ): Promise<void> {
    const body = bodyOf(type, name, resource, ids);
    if (type === 'tools') {
      const made = await this.tools.create(userId, await validateOrThrow(CreateToolDto, body));
      ids.created('tools', name, made.tool_id);
    } else if (type === 'strategies') {
      const dto = await validateOrThrow(CreateStrategyDto, body);
      ids.created('strategies', name, (await this.strategies.create(userId, dto)).strategy_id);
    } else if (type === 'assistants') {
      const dto = await validateOrThrow(CreateAssistantDto, body);
      const { assistant_id: id } = await this.assistants.create(userId, dto);
      ids.created('assistants', name, id);
      await this.attachTools(userId, id, [], resource.tools, ids);
    } else {
      await this.mappings.assign(userId, await validateOrThrow(AssignInboundDto, body));
    }
  }

  /** Sends only the fields the plan lists: the update merges them into the stored resource. */
  private async update(
    userId: string,
    { resource_type: type, name, fields }: ConfigChange,
    resource: BundleResource,
    ids: AppliedIds,
  ): Promise<void> {
    const body = bodyOf(type, name, resource, ids);
    const id = ids.existing(type, name);
    if (type === 'tools') {
      await this.tools.update(userId, id, await validateOrThrow(UpdateToolDto, pick(body, fields)));
    } else if (type === 'strategies') {
      const dto = await validateOrThrow(UpdateStrategyDto, pick(body, fields));
      await this.strategies.update(userId, id, dto);
    } else if (type === 'assistants') {
      const own = fields.filter((field) => field !== 'tools');
      if (own.length)
        await this.assistants.update(
          userId,
          id,
          await validateOrThrow(UpdateAssistantDto, pick(body, own)),
        );
      if (fields.includes('tools'))
        await this.attachTools(userId, id, ids.attached.get(id) ?? [], resource.tools, ids);
    } else {
      const routeFields = fields.map((field) => INBOUND_FIELDS[field] ?? field);
      const dto = await validateOrThrow(UpdateInboundDto, pick(body, routeFields));
      await this.mappings.update(userId, id, dto);
    }
  }

  private async remove(
    userId: string,
    { resource_type: type, name }: ConfigChange,
    ids: AppliedIds,
  ): Promise<void> {
    const id = ids.existing(type, name);
    if (type === 'tools') await this.tools.remove(userId, id);
    else if (type === 'strategies') await this.strategies.delete(userId, id);
    else if (type === 'assistants') await this.assistants.remove(userId, id);
    else await this.mappings.delete(userId, id);
  }

  /** Detaches the tools the bundle no longer names and attaches the ones it adds. */
  private async attachTools(
    userId: string,
    assistantId: string,
    current: string[],
    names: unknown,
    ids: AppliedIds,
  ): Promise<void> {
    const wanted = ((names as string[] | undefined) ?? []).map((tool) =>
      ids.existing('tools', tool),
    );
    const gone = current.filter((toolId) => !wanted.includes(toolId));
    const added = wanted.filter((toolId) => !current.includes(toolId));
    if (gone.length) await this.tools.detach(userId, assistantId, gone);
    if (added.length) await this.tools.attach(userId, assistantId, added);
  }
}

/** The route body (checked by the plan already, so reference errors cannot arise here). */
function bodyOf(
  type: BundleType,
  name: string,
  resource: BundleResource,
  ids: AppliedIds,
): Record<string, unknown> {
  const errors: FieldError[] = [];
  const body = routeBodyOf(type, name, resource, ids, errors);
  if (errors.length) throw AppException.validation(errors);
  return body;
}

const pick = (body: Record<string, unknown>, fields: string[]) =>
  Object.fromEntries(fields.filter((field) => field in body).map((field) => [field, body[field]]));

/** The error with the resource's path: before each field of a 400, in the message of another. */
function named(error: unknown, at: string): unknown {
  if (!(error instanceof AppException)) return error;
  const fields = error.data?.errors as FieldError[] | undefined;
  if (error.code === AppErrorCode.VALIDATION && Array.isArray(fields))
    return AppException.validation(
      fields.map((e) => ({ ...e, field: e.field ? `${at}.${e.field}` : at })),
    );
  return new AppException(error.code, `${at}: ${error.message}`, error.data, error.narrowerCode);
}
