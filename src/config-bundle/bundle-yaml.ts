import { CORE_SCHEMA, dump, load, type State } from 'js-yaml';
import { MAX_BODY_BYTES } from '../common/body/json-body';

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

/** A bundle file that cannot be read as one. */
export class BundleFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BundleFileError';
  }
}

/**
 * A bundle file's text (JSON, or YAML as `GET /config/export?format=yaml` writes it) as a value.
 * At most the request body limit (1 MB), as the routes would take no more. YAML is read with the
 * core schema (plain data: no dates, no merge keys, no custom tags) and without anchors or aliases,
 * which an export never writes and which could make a small file expand into a huge request.
 */
export function parseBundleText(text: string): unknown {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_BODY_BYTES)
    throw new BundleFileError(
      `the file has ${bytes} bytes, over the ${MAX_BODY_BYTES} a bundle may have`,
    );
  if (/^\s*[{[]/.test(text)) {
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new BundleFileError(`not valid JSON: ${(error as Error).message}`);
    }
  }
  try {
    return load(text, { schema: CORE_SCHEMA, json: false, listener: refuseAnchors });
  } catch (error) {
    throw new BundleFileError(`not valid YAML: ${(error as Error).message}`);
  }
}

function refuseAnchors(this: State, event: string, state: State): void {
  const anchor = (state as State & { anchor: string | null }).anchor;
  if (event === 'close' && anchor !== null)
    throw new Error(`anchors and aliases are not accepted (&${anchor} at line ${state.line + 1})`);
}
