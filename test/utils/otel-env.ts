import { startTelemetry } from '../../src/telemetry/telemetry';
import { OtlpReceiver } from './otlp-receiver';

const OTEL_VARIABLES = [
  'OTEL_SDK_DISABLED',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_PROTOCOL',
  'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
  'OTEL_SERVICE_NAME',
];

/** Sets the OTEL_* variables for one suite (the rest unset), restored after it. */
function otelEnv(values: () => Record<string, string>): void {
  const saved: Record<string, string | undefined> = {};
  beforeAll(() => {
    for (const name of OTEL_VARIABLES) {
      saved[name] = process.env[name];
      delete process.env[name];
    }
    Object.assign(process.env, values());
  });
  afterAll(() => {
    for (const name of OTEL_VARIABLES)
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
  });
}

/** OTLP span kinds, as the receiver reads them. */
export const SPAN_KIND = { SERVER: 2, CLIENT: 3, CONSUMER: 5 } as const;
/** The OTLP status code of a span that failed. */
export const SPAN_ERROR = 2;

/** What a suite declared with `tracingSuite` holds once its `beforeAll` hooks have run. */
export interface TracingSuite {
  receiver: OtlpReceiver;
  /** What `startTelemetry` answered: where spans go, or null when tracing stayed off. */
  startLine: string | null;
}

/**
 * A receiver for one suite and tracing started toward it (OTLP/HTTP JSON), or with `on: false`
 * the same receiver and no endpoint set. Declare it before `appSuite`, whose application must be
 * created after tracing starts; the receiver is closed after the suite.
 */
export function tracingSuite({ on = true } = {}): TracingSuite {
  const suite = {} as TracingSuite;
  beforeAll(async () => {
    suite.receiver = await OtlpReceiver.start();
  });
  otelEnv((): Record<string, string> =>
    on
      ? {
          OTEL_EXPORTER_OTLP_ENDPOINT: suite.receiver.url,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        }
      : { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_SERVICE_NAME: 'unused' },
  );
  beforeAll(() => {
    suite.startLine = startTelemetry();
  });
  afterAll(() => suite.receiver.close());
  return suite;
}
