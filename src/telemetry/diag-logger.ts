import type { DiagLogger } from '@opentelemetry/api';

/** The variables whose values are credentials for the trace backend (`key=value,...`). */
const HEADER_VARIABLES = ['OTEL_EXPORTER_OTLP_HEADERS', 'OTEL_EXPORTER_OTLP_TRACES_HEADERS'];
const MAX_LINE = 1_000;
const URL_USER_INFO = /\b(https?:\/\/)[^\s/@]+@/gi;
/** What a masked value reads (the service's masks read the same). */
const MASK = '****';
/** An error's class name or code as written: a name, never a sentence that may quote a value. */
const NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * The SDK's own complaints (an export refused, a value it ignores), one line each. A component's
 * logger passes its name first and its message and values after it; every argument is written:
 * text as given but for the values of the OTLP header variables (a backend's key: the SDK quotes
 * an invalid header's value) and a URL's user and password, an error as its class and code (its
 * message may quote what it carried), bytes as their count. Telemetry stands below `common`, so
 * this names its own mask and reads an error itself.
 */
export function diagLogger(
  write: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): DiagLogger {
  const secrets = headerValues(env);
  const line =
    (level: string) =>
    (...args: unknown[]): void => {
      const text = args.map((arg) => describe(arg, secrets)).join(' ');
      write(`OpenTelemetry ${level}: ${text.slice(0, MAX_LINE)}`);
    };
  return {
    error: line('error'),
    warn: line('warning'),
    info: () => undefined,
    debug: () => undefined,
    verbose: () => undefined,
  };
}

function describe(arg: unknown, secrets: string[]): string {
  if (typeof arg === 'string') return masked(arg, secrets);
  if (typeof arg === 'number' || typeof arg === 'boolean') return String(arg);
  if (arg instanceof Uint8Array) return `(${arg.byteLength} bytes)`;
  if (arg instanceof Error) {
    const type = NAME.test(arg.constructor.name) ? arg.constructor.name : 'Error';
    const { code } = arg as { code?: unknown };
    const named = typeof code === 'string' || typeof code === 'number' ? String(code) : '';
    return NAME.test(named) ? `(${type} ${named})` : `(${type})`;
  }
  return arg === undefined || arg === null ? String(arg) : `(${typeof arg})`;
}

function masked(text: string, secrets: string[]): string {
  let out = text.replace(URL_USER_INFO, `$1${MASK}@`);
  for (const secret of secrets) out = out.split(secret).join(MASK);
  return out;
}

/** Each header value of the variables (but a single character), as written and decoded, longest first. */
function headerValues(env: NodeJS.ProcessEnv): string[] {
  const values = new Set<string>();
  for (const name of HEADER_VARIABLES) {
    for (const pair of (env[name] ?? '').split(',')) {
      const value = pair.slice(pair.indexOf('=') + 1).trim();
      if (!pair.includes('=') || value.length < 2) continue;
      values.add(value);
      values.add(decoded(value));
    }
  }
  return [...values].sort((a, b) => b.length - a.length);
}

function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
