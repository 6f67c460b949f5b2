import { randomUUID } from 'node:crypto';
import type { ClassConstructor } from 'class-transformer';
import { CreateAssistantDto } from '../assistant/dto/create-assistant.dto';
import { UpdateAssistantDto } from '../assistant/dto/update-assistant.dto';
import { AppException, type FieldError } from '../common/errors/app.exception';
import { referencedNames } from '../common/secrets/secret-reference';
import { normalizePhoneNumber } from '../common/validation/phone-number';
import { validateOrThrow } from '../common/validation/validate';
import { AssignInboundDto, UpdateInboundDto } from '../inbound-context/dto/assign-inbound.dto';
import { CreateStrategyDto } from '../inbound-context/dto/create-strategy.dto';
import { UpdateStrategyDto } from '../inbound-context/dto/update-strategy.dto';
import { CreateToolDto } from '../tool/dto/create-tool.dto';
import { UpdateToolDto } from '../tool/dto/update-tool.dto';
import {
  BUNDLE_TYPES,
  type BundleResource,
  type BundleType,
  type ConfigBundle,
} from './config-bundle.types';
import { POLICY_ACTIONS_WITH_ASSISTANT } from './bundle-fields';
import { mergedOver, SecretOriginCheck } from './bundle-secret-origins';
import type { CallerConfig } from './to-bundle';

/** What a bundle may hold besides its resources: `revision` and `secrets` as an export writes them. */
const OTHER_KEYS = ['revision', 'secrets'];

type Dto = ClassConstructor<object>;

/** The route bodies a resource is checked as: the create route's for a new one, else the update's. */
const DTOS: Record<BundleType, { create: Dto; update: Dto }> = {
  tools: { create: CreateToolDto, update: UpdateToolDto },
  strategies: { create: CreateStrategyDto, update: UpdateStrategyDto },
  assistants: { create: CreateAssistantDto, update: UpdateAssistantDto },
  inbound: { create: AssignInboundDto, update: UpdateInboundDto },
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The resources of a bundle, checked; `errors` name `bundle.<type>[<name>].<field>`. */
export interface CheckedBundle {
  wanted: Pick<ConfigBundle, BundleType>;
  /** The parts the bundle holds (a prune deletes only in these). */
  parts: Set<BundleType>;
  errors: FieldError[];
}

/** The shape: an object of the known parts, each an object of objects. */
function checkShape(bundle: unknown, errors: FieldError[]): Pick<ConfigBundle, BundleType> {
  const wanted = { tools: {}, strategies: {}, assistants: {}, inbound: {} } as Pick<
    ConfigBundle,
    BundleType
  >;
  if (!isObject(bundle)) {
    errors.push({
      field: 'bundle',
      message: 'must be an object (an export of GET /config/export)',
    });
    return wanted;
  }
  for (const key of Object.keys(bundle)) {
    if (!(BUNDLE_TYPES as readonly string[]).includes(key) && !OTHER_KEYS.includes(key))
      errors.push({
        field: `bundle.${key}`,
        message: `is not a part of a bundle (${[...BUNDLE_TYPES, ...OTHER_KEYS].join(', ')})`,
      });
  }
  for (const type of BUNDLE_TYPES) {
    const part = bundle[type];
    if (part === undefined) continue;
    if (!isObject(part)) {
      errors.push({ field: `bundle.${type}`, message: 'must be an object keyed by name' });
      continue;
    }
    for (const [name, resource] of Object.entries(part)) {
      if (isObject(resource)) wanted[type][name] = resource;
      else errors.push({ field: `bundle.${type}[${name}]`, message: 'must be an object' });
    }
  }
  return wanted;
}

/** Names to ids: `idOf` is undefined for a name neither the tenant nor the bundle has. */
export interface NameResolver {
  idOf(type: 'tools' | 'strategies' | 'assistants', name: string): string | undefined;
}

/**
 * Resolves names to ids for validation: a resource of the tenant by its id, one the bundle creates
 * by a fresh id (as its create will give it one). Unknown names are errors.
 */
class References implements NameResolver {
  private readonly ids: Record<'tools' | 'strategies' | 'assistants', Map<string, string>>;

  constructor(
    config: CallerConfig,
    private readonly wanted: Pick<ConfigBundle, BundleType>,
  ) {
    this.ids = {
      tools: new Map(config.tools.map((tool) => [tool.tool_name, tool.tool_id])),
      strategies: new Map(config.strategies.map((s) => [s.strategy_name, s.strategy_id])),
      assistants: new Map(config.assistants.map((a) => [a.assistant_name, a.assistant_id])),
    };
  }

  /** The id a name stands for, or undefined when neither the tenant nor the bundle has it. */
  idOf(type: 'tools' | 'strategies' | 'assistants', name: string): string | undefined {
    const known = this.ids[type].get(name);
    if (known) return known;
    if (!(name in this.wanted[type])) return undefined;
    const fresh = randomUUID();
    this.ids[type].set(name, fresh);
    return fresh;
  }
}

/** The route body a resource stands for (name and references put back), and reference errors. */
export function routeBodyOf(
  type: BundleType,
  name: string,
  resource: BundleResource,
  refs: NameResolver,
  errors: FieldError[],
): Record<string, unknown> {
  const at = `bundle.${type}[${name}]`;
  if (type === 'tools') return { tool_name: name, ...resource };
  if (type === 'strategies') return { strategy_name: name, ...resource };
  if (type === 'assistants') {
    const { tools, ...rest } = resource;
    if (
      tools !== undefined &&
      (!Array.isArray(tools) || tools.some((tool) => typeof tool !== 'string'))
    )
      errors.push({ field: `${at}.tools`, message: 'must be an array of tool names' });
    else
      for (const tool of (tools as string[] | undefined) ?? [])
        if (!refs.idOf('tools', tool))
          errors.push({
            field: `${at}.tools`,
            message: `names tool "${tool}", which neither the bundle nor your tools have`,
          });
    return { assistant_name: name, ...rest };
  }
  const { assistant, strategy, inbound_config: config, policy, ...rest } = resource;
  const body: Record<string, unknown> = {
    ...rest,
    inbound_config: { ...(isObject(config) ? config : {}), phone_number: name },
  };
  if (policy !== undefined) body.policy = policyWithIds(policy, at, refs, errors);
  for (const [field, target, idField] of [
    ['assistant', assistant, 'assistant_id'],
    ['strategy', strategy, 'inbound_context_strategy_id'],
  ] as const) {
    if (target === undefined || target === null) {
      if (target === null) body[idField] = null;
      continue;
    }
    const id =
      typeof target === 'string'
        ? refs.idOf(field === 'assistant' ? 'assistants' : 'strategies', target)
        : undefined;
    if (id) body[idField] = id;
    else
      errors.push({
        field: `${at}.${field}`,
        message: `must name one of your ${field === 'assistant' ? 'assistants' : 'strategies'} or one of the bundle's`,
      });
  }
  return body;
}

/** A bundle's policy with the assistant each action names (`assistant`) as its id. */
function policyWithIds(
  policy: unknown,
  at: string,
  refs: NameResolver,
  errors: FieldError[],
): unknown {
  if (!isObject(policy)) return policy;
  const out: Record<string, unknown> = { ...policy };
  for (const key of POLICY_ACTIONS_WITH_ASSISTANT) {
    const action = policy[key];
    if (!isObject(action)) continue;
    const { assistant, ...rest } = action;
    const field = `${at}.policy.${key}`;
    if ('assistant_id' in rest)
      errors.push({
        field: `${field}.assistant_id`,
        message: 'a bundle names an assistant by its name (assistant), not by its id',
      });
    if (assistant === undefined || assistant === null) {
      out[key] = rest;
      continue;
    }
    const id = typeof assistant === 'string' ? refs.idOf('assistants', assistant) : undefined;
    if (id) out[key] = { ...rest, assistant_id: id };
    else {
      out[key] = rest;
      errors.push({
        field: `${field}.assistant`,
        message: "must name one of your assistants or one of the bundle's",
      });
    }
  }
  return out;
}

/** Prefixes the field names of a 400 from `validateOrThrow` with the resource's path. */
async function validated(cls: Dto, body: unknown, at: string, errors: FieldError[]): Promise<void> {
  try {
    await validateOrThrow(cls, body);
  } catch (error) {
    const fields =
      error instanceof AppException ? (error.data?.errors as FieldError[] | undefined) : undefined;
    if (!fields) throw error;
    errors.push(
      ...fields.map((e) => ({ field: e.field ? `${at}.${e.field}` : at, message: e.message })),
    );
  }
}

/**
 * Checks a bundle as the REST routes would check each of its resources (the create body for a
 * new one, the update body for one that exists), its references by name, and that every secret it
 * names is one of the caller's.
 */
export async function checkBundle(
  bundle: unknown,
  current: ConfigBundle,
  config: CallerConfig,
): Promise<CheckedBundle> {
  const errors: FieldError[] = [];
  const wanted = checkShape(bundle, errors);
  const refs = new References(config, wanted);
  const secrets = new Set(config.secrets.map((secret) => secret.secret_name));
  const origins = new SecretOriginCheck(config.secrets);
  for (const type of BUNDLE_TYPES) {
    const existing = new Set(Object.keys(current[type]));
    for (const [name, resource] of Object.entries(wanted[type])) {
      const at = `bundle.${type}[${name}]`;
      const body = routeBodyOf(type, name, resource, refs, errors);
      const isNew = type === 'inbound' ? !hasNumber(existing, name) : !existing.has(name);
      await validated(isNew ? DTOS[type].create : DTOS[type].update, body, at, errors);
      const saved = isNew ? body : (mergedOver(current[type][name], body) as BundleResource);
      errors.push(...origins.errorsOf(type, saved, at));
      for (const secret of referencedNames(JSON.stringify(resource)))
        if (!secrets.has(secret))
          errors.push({
            field: at,
            message: `references secret ${secret}, which is not one of your secrets`,
          });
    }
  }
  if (isObject(bundle) && Array.isArray(bundle.secrets))
    bundle.secrets.forEach((secret, i) => {
      if (typeof secret !== 'string' || !secrets.has(secret))
        errors.push({
          field: `bundle.secrets[${i}]`,
          message: `is not one of your secrets: create it first (POST /secret/create)`,
        });
    });
  const parts = new Set(BUNDLE_TYPES.filter((type) => isObject(bundle) && isObject(bundle[type])));
  return { wanted, parts, errors };
}

function hasNumber(existing: Set<string>, number: string): boolean {
  const wanted = normalizePhoneNumber(number);
  return [...existing].some((name) => normalizePhoneNumber(name) === wanted);
}
