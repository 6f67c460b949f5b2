/** Limits and defaults of tools, in one place for the DTOs, the service and the call worker. */
export const TOOL_NAME_PATTERN = /^[a-z][a-z0-9_]*$/;
/** Language models accept function names of at most 64 characters. */
export const TOOL_NAME_MAX_LENGTH = 64;
export const TOOL_DESCRIPTION_MAX_LENGTH = 500;
/** Name of the built-in function the runtime view adds when `assistant_end_call_enabled`. */
export const END_CALL_FUNCTION_NAME = 'end_call';

export const TOOL_EXECUTION_TYPES = ['webhook', 'static_return'] as const;
export const TOOL_PARAMETER_TYPES = ['string', 'number', 'boolean', 'object', 'array'] as const;
export type ToolParameterType = (typeof TOOL_PARAMETER_TYPES)[number];

/** A parameter name usable as a JSON Schema property and a function argument in any language. */
export const PARAMETER_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const PARAMETER_NAME_MAX_LENGTH = 64;
export const PARAMETER_DESCRIPTION_MAX_LENGTH = 1000;
export const MAX_TOOL_PARAMETERS = 100;
export const MAX_ENUM_VALUES = 100;

export const WEBHOOK_URL_MAX_LENGTH = 2048;
export const DEFAULT_WEBHOOK_TIMEOUT_SECONDS = 10;
export const MAX_WEBHOOK_HEADERS = 50;

/** A static value is stored in a JSON column and handed to the model verbatim: keep it bounded. */
export const MAX_STATIC_VALUE_JSON_LENGTH = 65_536;
/**
 * Containers a static value may nest. MariaDB refuses JSON nested 32 levels or more (MySQL 100, SQLite
 * 1000); the stored column wraps the value (`{"value": ...}`), and copies of it are nested further
 * (an activity-log entry's `response_data.result`), so the limit keeps a margin under MariaDB's and is
 * the same in every mode.
 */
export const MAX_STATIC_VALUE_DEPTH = 20;

/**
 * What a call of the tool does to the world: `none` (safe to repeat), `idempotent` (repeats are
 * harmless when the receiver honours `Idempotency-Key`), `irreversible` (must not run twice).
 */
export const SIDE_EFFECTS = ['none', 'idempotent', 'irreversible'] as const;
export type SideEffect = (typeof SIDE_EFFECTS)[number];
/** A path into a call's arguments: identifiers joined by dots (`slot`, `customer.phone`). */
export const DEDUPE_KEY_PATH_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
export const DEDUPE_KEY_PATH_MAX_LENGTH = 200;
export const MAX_DEDUPE_KEY_PATHS = 8;
export const DEDUPE_WINDOW_SECONDS = { min: 60, max: 86_400, default: 3600 } as const;
