import { assistantReferencingFields } from '../assistant/utils/assistant-referencing-fields.util';
import type { FieldError } from '../common/errors/app.exception';
import type { ReferencingField } from '../common/secrets/secret-reference';
import { strategyReferencingFields } from '../inbound-context/utils/strategy-referencing-fields.util';
import { fieldProblems, firstUseBinding, ruleErrors } from '../secret/secret-reference-checks';
import { toolReferencingFields } from '../tool/utils/tool-referencing-fields.util';
import type { BundleResource, BundleType } from './config-bundle.types';

/** A secret of the caller as a plan sees it: its name and where it may be sent (null: not bound yet). */
export interface SecretOrigins {
  secret_name: string;
  allowed_origins: string[] | null;
}

/** The fields of each type that may hold a `{{secret.NAME}}`, as its module names them. */
const REFERENCING_FIELDS: Partial<Record<BundleType, (resource: never) => ReferencingField[]>> = {
  tools: toolReferencingFields,
  strategies: strategyReferencingFields,
  assistants: assistantReferencingFields,
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `wanted` over `current` as an update merges it: objects key by key, anything else replaced. */
export function mergedOver(current: unknown, wanted: unknown): unknown {
  if (!isObject(current) || !isObject(wanted)) return wanted;
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(wanted)) merged[key] = mergedOver(current[key], value);
  return merged;
}

/**
 * Where each secret a bundle references would be sent, checked as the routes check a save (the
 * secret's `allowed_origins`, a reference well formed and not in a URL's origin): the plan names
 * what apply would refuse. A secret not bound yet is bound by its first use, so the resources are
 * to be checked in the order apply makes them. Names that are not the caller's secrets are left
 * to the check that names them.
 */
export class SecretOriginCheck {
  private readonly allowed: Map<string, string[] | null>;

  constructor(secrets: SecretOrigins[]) {
    this.allowed = new Map(secrets.map((s) => [s.secret_name, s.allowed_origins]));
  }

  /** The errors of one resource as it would be saved (`body`: the merged resource for an update). */
  errorsOf(type: BundleType, body: BundleResource, at: string): FieldError[] {
    const fieldsOf = REFERENCING_FIELDS[type] as
      ((r: BundleResource) => ReferencingField[]) | undefined;
    if (!fieldsOf) return [];
    const { errors, wanted } = fieldProblems(fieldsOf(body));
    for (const [name, fields] of wanted) {
      if (!this.allowed.has(name)) continue;
      const allowed = this.allowed.get(name) ?? firstUseBinding(fields);
      if (allowed) this.allowed.set(name, allowed);
      errors.push(...ruleErrors(name, { allowed_origins: allowed }, fields));
    }
    return errors.map((error) => ({ field: `${at}.${error.field}`, message: error.message }));
  }
}
