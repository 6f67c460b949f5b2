import { context, diag, propagation, trace, DiagLogLevel } from '@opentelemetry/api';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { diagLogger } from './diag-logger';
import { w3cPropagator } from './trace-context';

/**
 * OpenTelemetry tracing of the process, configured by the standard `OTEL_*` variables only:
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or `OTEL_EXPORTER_OTLP_ENDPOINT` (without one nothing is
 * exported and no tracer provider is made), `OTEL_EXPORTER_OTLP_PROTOCOL` (`http/protobuf`, the
 * default, or `http/json`), `OTEL_SERVICE_NAME` (default `voice-assistant-config`),
 * `OTEL_SDK_DISABLED`, and what the SDK itself reads (`OTEL_EXPORTER_OTLP_HEADERS`,
 * `OTEL_TRACES_SAMPLER`, `OTEL_RESOURCE_ATTRIBUTES`, ...).
 */
export const DEFAULT_SERVICE_NAME = 'voice-assistant-config';

const PROTOCOLS = ['http/protobuf', 'http/json'] as const;
type Protocol = (typeof PROTOCOLS)[number];

export interface TelemetrySettings {
  /** Where spans are posted: the traces endpoint as given, or `<base endpoint>/v1/traces`. */
  url: string;
  protocol: Protocol;
}

/** What the variables ask for, or the one variable whose value tracing cannot start with. */
export function telemetrySettings(env: NodeJS.ProcessEnv): {
  settings: TelemetrySettings | null;
  problem?: string;
} {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return { settings: null };
  const named = (['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_ENDPOINT'] as const)
    .map((name) => ({ name, value: env[name]?.trim() }))
    .find((variable) => variable.value);
  if (!named?.value) return { settings: null };
  if (!isHttpUrl(named.value))
    return { settings: null, problem: `${named.name} is not an http(s) URL` };
  const protocolVariable = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim()
    ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = env[protocolVariable]?.trim() || 'http/protobuf';
  if (!(PROTOCOLS as readonly string[]).includes(protocol))
    return {
      settings: null,
      problem: `${protocolVariable}=${JSON.stringify(protocol.slice(0, 40))} is not supported (${PROTOCOLS.join(' or ')})`,
    };
  const url =
    named.name === 'OTEL_EXPORTER_OTLP_ENDPOINT'
      ? `${named.value.replace(/\/+$/, '')}/v1/traces`
      : named.value;
  return { settings: { url, protocol: protocol as Protocol } };
}

function isHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

let provider: NodeTracerProvider | null = null;

/** True while spans are recorded and exported (an endpoint is set and tracing started). */
export function tracingEnabled(): boolean {
  return provider !== null;
}

/**
 * Starts tracing when the variables name an endpoint; call it before the application is created.
 * Returns the line to log at start: where spans go, or the variable whose value kept tracing off
 * (the service starts either way); null when tracing is simply off.
 */
export function startTelemetry(
  env: NodeJS.ProcessEnv = process.env,
  diagLog: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): string | null {
  if (provider) return null;
  const { settings, problem } = telemetrySettings(env);
  if (problem) return `OpenTelemetry tracing is off: ${problem}`;
  if (!settings) return null;
  diag.setLogger(diagLogger(diagLog, env), DiagLogLevel.WARN);
  const { url } = settings;
  const exporter =
    settings.protocol === 'http/json'
      ? new OtlpJsonExporter({ url })
      : new OtlpProtoExporter({ url });
  const resource = defaultResource()
    .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: DEFAULT_SERVICE_NAME }))
    .merge(detectResources({ detectors: [envDetector] }));
  provider = new NodeTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  provider.register({ propagator: w3cPropagator });
  return `OpenTelemetry tracing on: spans exported to ${url} (${settings.protocol})`;
}

/** Exports the spans still batched (tests, before reading what the collector received). */
export async function flushTelemetry(): Promise<void> {
  await provider?.forceFlush();
}

/** Exports what is batched and stops tracing (graceful shutdown); it can be started again. */
export async function shutdownTelemetry(): Promise<void> {
  const stopping = provider;
  if (!stopping) return;
  provider = null;
  try {
    await stopping.shutdown();
  } finally {
    trace.disable();
    context.disable();
    propagation.disable();
    diag.disable();
  }
}
