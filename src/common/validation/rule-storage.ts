import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

type RuleTarget = new (...args: never[]) => unknown;

/** The part of class-validator's storage the document readers use: every class that declares a rule. */
interface RuleStorage {
  validationMetadatas: Map<RuleTarget, ValidationMetadata[]>;
  getTargetValidationMetadatas(
    target: RuleTarget,
    schema: string,
    always: boolean,
    strictGroups: boolean,
  ): ValidationMetadata[];
}

/** Every class that declares a validation rule, with its rules (inherited ones included). */
export function* classRules(): Generator<[RuleTarget, ValidationMetadata[]]> {
  const storage = getMetadataStorage() as unknown as RuleStorage;
  for (const target of storage.validationMetadatas.keys()) {
    yield [target, storage.getTargetValidationMetadatas(target, '', true, false)];
  }
}
