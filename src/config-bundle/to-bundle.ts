import type { AssistantDetailsDto } from '../assistant/dto/assistant-response.dto';
import { AppException } from '../common/errors/app.exception';
import type { InboundResponseDto } from '../inbound-context/dto/inbound-response.dto';
import type { StrategyResponseDto } from '../inbound-context/dto/strategy-response.dto';
import type { ToolDetailsDto } from '../tool/dto/tool-response.dto';
import type { SecretOrigins } from './bundle-secret-origins';
import { BUNDLE_FIELDS, POLICY_ACTIONS_WITH_ASSISTANT } from './bundle-fields';
import type { BundleResource, BundleType, ConfigBundle } from './config-bundle.types';

/** Everything of one caller a bundle is made of, as the reads return it (secrets masked). */
export interface CallerConfig {
  assistants: AssistantDetailsDto[];
  tools: ToolDetailsDto[];
  strategies: StrategyResponseDto[];
  inbound: InboundResponseDto[];
  secrets: SecretOrigins[];
}

interface Named<T> {
  name: string;
  id: string;
  view: T;
}

/** Two resources of one type under one name. */
interface Duplicate {
  resource_type: string;
  name: string;
  ids: string[];
}

function duplicatesOf<T>(type: string, items: Array<Named<T>>, keyOf = (name: string) => name) {
  const byKey = new Map<string, Array<Named<T>>>();
  for (const item of items)
    byKey.set(keyOf(item.name), [...(byKey.get(keyOf(item.name)) ?? []), item]);
  return [...byKey.values()]
    .filter((group) => group.length > 1)
    .map((group): Duplicate => ({
      resource_type: type,
      name: group[0].name,
      ids: group.map((item) => item.id).sort(),
    }));
}

function keyed<T>(items: Array<Named<T>>, toResource: (view: T) => BundleResource) {
  const out: Record<string, BundleResource> = {};
  for (const item of [...items].sort((a, b) => a.name.localeCompare(b.name)))
    out[item.name] = toResource(item.view);
  return out;
}

/**
 * The caller's configuration as a bundle: keyed by name, references by name. 409 when two
 * resources of one type share a name (or two mappings one number): the bundle could not tell
 * them apart.
 */
export function toBundle(config: CallerConfig): ConfigBundle {
  const tools = config.tools.map((view) => ({ name: view.tool_name, id: view.tool_id, view }));
  const strategies = config.strategies.map((view) => ({
    name: view.strategy_name,
    id: view.strategy_id,
    view,
  }));
  const assistants = config.assistants.map((view) => ({
    name: view.assistant_name,
    id: view.assistant_id,
    view,
  }));
  const inbound = config.inbound.map((view) => ({
    name: view.inbound_config.phone_number,
    id: view.inbound_id,
    view,
  }));
  const normalizedOf = new Map(
    config.inbound.map((view) => [view.inbound_config.phone_number, view.phone_number_normalized]),
  );
  const duplicates = [
    ...duplicatesOf('assistants', assistants),
    ...duplicatesOf('tools', tools),
    ...duplicatesOf('strategies', strategies),
    ...duplicatesOf('inbound', inbound, (number) => normalizedOf.get(number) ?? number),
  ];
  if (duplicates.length) {
    throw AppException.conflict(
      `Two resources of one type share a name: rename one first (${duplicates.map((d) => `${d.resource_type} "${d.name}"`).join(', ')})`,
      { duplicates },
    );
  }
  const toolName = new Map(tools.map((tool) => [tool.id, tool.name]));
  const strategyName = new Map(strategies.map((strategy) => [strategy.id, strategy.name]));
  const assistantName = new Map(assistants.map((assistant) => [assistant.id, assistant.name]));
  const namesOf: NamesOf = {
    tool_ids: (ids) => (ids as string[]).map((id) => toolName.get(id) ?? id),
    assistant_id: (id) => (typeof id === 'string' ? (assistantName.get(id) ?? null) : null),
    inbound_context_strategy_id: (id) =>
      typeof id === 'string' ? (strategyName.get(id) ?? null) : null,
  };
  return {
    assistants: keyed(assistants, (view) => toResource('assistants', view, namesOf)),
    tools: keyed(tools, (view) => toResource('tools', view, namesOf)),
    strategies: keyed(strategies, (view) => toResource('strategies', view, namesOf)),
    inbound: keyed(inbound, (view) => toInboundResource(view, namesOf)),
    secrets: config.secrets.map((secret) => secret.secret_name).sort(),
  };
}

/** The name each id field of `BUNDLE_FIELDS` stands for (null: it names nothing of the caller). */
type NamesOf = Record<string, (id: unknown) => unknown>;

/** The fields `BUNDLE_FIELDS` exports of a view, ids of other resources as their names. */
function toResource(type: BundleType, view: object, namesOf: NamesOf): BundleResource {
  const fields = view as Record<string, unknown>;
  const { copied, byName } = BUNDLE_FIELDS[type];
  const resource: BundleResource = {};
  for (const [idField, nameField] of Object.entries(byName))
    resource[nameField] = namesOf[idField](fields[idField]);
  for (const field of copied) if (fields[field] !== undefined) resource[field] = fields[field];
  return resource;
}

/** A mapping: its number is the key, the rest of `inbound_config` stays; its policy names assistants. */
function toInboundResource(view: InboundResponseDto, namesOf: NamesOf): BundleResource {
  const { phone_number: _number, ...configRest } = view.inbound_config;
  const resource = toResource('inbound', view, namesOf);
  if (view.policy) resource.policy = policyByName(view.policy, namesOf.assistant_id);
  if (Object.keys(configRest).length) resource.inbound_config = configRest;
  return resource;
}

/** A policy with the assistant of each action by name. */
function policyByName(policy: object, assistantName: (id: unknown) => unknown): BundleResource {
  const out: BundleResource = { ...policy };
  for (const key of POLICY_ACTIONS_WITH_ASSISTANT) {
    const action = out[key] as Record<string, unknown> | null | undefined;
    if (!action) continue;
    const { assistant_id: id, ...rest } = action;
    out[key] = id ? { ...rest, assistant: assistantName(id) } : rest;
  }
  return out;
}
