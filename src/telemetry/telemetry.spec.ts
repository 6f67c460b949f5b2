import { trace } from '@opentelemetry/api';
import { shutdownTelemetry, startTelemetry, telemetrySettings, tracingEnabled } from './telemetry';

describe(telemetrySettings.name, () => {
  it('is off without an endpoint, or when the SDK is disabled', () => {
    expect(telemetrySettings({})).toEqual({ settings: null });
    expect(telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toEqual({ settings: null });
    expect(
      telemetrySettings({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_SDK_DISABLED: 'TRUE',
      }),
    ).toEqual({ settings: null });
  });

  it('takes the traces endpoint first, and http/protobuf unless told http/json', () => {
    expect(
      telemetrySettings({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example.com/v1/traces',
      }),
    ).toEqual({
      settings: { url: 'https://traces.example.com/v1/traces', protocol: 'http/protobuf' },
    });
    expect(
      telemetrySettings({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      }).settings,
    ).toEqual({ url: 'http://collector:4318/v1/traces', protocol: 'http/json' });
  });

  it.each([
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' },
      'OTEL_EXPORTER_OTLP_ENDPOINT is not an http(s) URL',
    ],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
      'OTEL_EXPORTER_OTLP_PROTOCOL="grpc" is not supported (http/protobuf or http/json)',
    ],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'x' },
      'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL="x" is not supported (http/protobuf or http/json)',
    ],
  ])('names the variable whose value it cannot start with: %j', (env, problem) => {
    expect(telemetrySettings(env)).toEqual({ settings: null, problem });
  });
});

describe(startTelemetry.name, () => {
  afterEach(() => shutdownTelemetry());

  it('with a value it refuses: one line naming it, and tracing stays off', () => {
    const line = startTelemetry({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'carrier-pigeon',
    });
    expect(line).toBe(
      'OpenTelemetry tracing is off: OTEL_EXPORTER_OTLP_PROTOCOL="carrier-pigeon" is not supported (http/protobuf or http/json)',
    );
    expect(tracingEnabled()).toBe(false);
  });

  it('with an endpoint: spans are recorded until the shutdown', async () => {
    expect(startTelemetry({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })).toBe(
      'OpenTelemetry tracing on: spans exported to http://127.0.0.1:4318/v1/traces (http/protobuf)',
    );
    expect(tracingEnabled()).toBe(true);
    const span = trace.getTracer('t').startSpan('s');
    expect(span.isRecording()).toBe(true);
    await shutdownTelemetry();
    expect(tracingEnabled()).toBe(false);
    expect(trace.getTracer('t').startSpan('s').isRecording()).toBe(false);
  });
});
