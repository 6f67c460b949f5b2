const OTEL_VARIABLES = [
  'OTEL_SDK_DISABLED',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_PROTOCOL',
  'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
  'OTEL_SERVICE_NAME',
];

/** Sets the OTEL_* variables for one suite (the rest unset), restored after it. */
export function otelEnv(values: () => Record<string, string>): void {
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
