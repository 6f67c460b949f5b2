import type { AssistantDetailsDto } from '../assistant/dto/assistant-response.dto';
import { AppException } from '../common/errors/app.exception';
import type { InboundResponseDto } from '../inbound-context/dto/inbound-response.dto';
import type { StrategyResponseDto } from '../inbound-context/dto/strategy-response.dto';
import type { ToolDetailsDto } from '../tool/dto/tool-response.dto';
import type { BundleResource, ConfigBundle } from './config-bundle.types';

/** Everything of one caller a bundle is made of, as the reads return it (secrets masked). */
export interface CallerConfig {
  assistants: AssistantDetailsDto[];
  tools: ToolDetailsDto[];
  strategies: StrategyResponseDto[];
  inbound: InboundResponseDto[];
  secretNames: string[];
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

/** The view without the fields the server makes (and the name, which is the key). */
function without<T extends object>(view: T, fields: string[]): BundleResource {
  return Object.fromEntries(Object.entries(view).filter(([field]) => !fields.includes(field)));
}

const SERVER_FIELDS = ['created_at', 'updated_at'];

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
  return {
    assistants: keyed(assistants, (view) => ({
      ...without(view, ['assistant_id', 'assistant_name', 'tool_ids', ...SERVER_FIELDS]),
      tools: view.tool_ids.map((id) => toolName.get(id) ?? id),
    })),
    tools: keyed(tools, (view) => without(view, ['tool_id', 'tool_name', ...SERVER_FIELDS])),
    strategies: keyed(strategies, (view) =>
      without(view, ['strategy_id', 'strategy_name', ...SERVER_FIELDS]),
    ),
    inbound: keyed(inbound, (view) => toInboundResource(view, assistantName, strategyName)),
    secrets: [...config.secretNames].sort(),
  };
}

function toInboundResource(
  view: InboundResponseDto,
  assistantName: Map<string, string>,
  strategyName: Map<string, string>,
): BundleResource {
  const { phone_number: _number, ...configRest } = view.inbound_config;
  return {
    assistant: view.assistant_id ? (assistantName.get(view.assistant_id) ?? null) : null,
    assistant_version: view.assistant_version,
    assistant_variants: view.assistant_variants,
    strategy: view.inbound_context_strategy_id
      ? (strategyName.get(view.inbound_context_strategy_id) ?? null)
      : null,
    service: view.service,
    ...(Object.keys(configRest).length ? { inbound_config: configRest } : {}),
    is_active: view.is_active,
  };
}
