import { dump } from 'js-yaml';

const YAML_TYPES = /^(?:application|text)\/(?:x-)?yaml$/i;

/**
 * Whether `GET /config/export` answers YAML: `?format=yaml`, or no format asked and an Accept header
 * that prefers YAML (listed before any JSON type).
 */
export function wantsYaml(format: string | undefined, accept: string | undefined): boolean {
  if (format) return format === 'yaml';
  const types = (accept ?? '').split(',').map((part) => part.split(';')[0].trim());
  const yaml = types.findIndex((type) => YAML_TYPES.test(type));
  const json = types.findIndex((type) => /^application\/json$/i.test(type));
  return yaml >= 0 && (json < 0 || yaml < json);
}

/** The bundle as YAML: no anchors or aliases (each value written out), keys in the bundle's order. */
export function toYaml(value: unknown): string {
  return dump(value, { noRefs: true, lineWidth: -1, sortKeys: false });
}
