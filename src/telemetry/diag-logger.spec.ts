import { diag, DiagLogLevel } from '@opentelemetry/api';
import { diagLogger } from './diag-logger';

describe(diagLogger.name, () => {
  const env = {
    OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=k3y%2Fsecret-1, x-team=ops',
    OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'authorization=Bearer tok-2',
  };

  function logged(...args: unknown[]): string[] {
    const lines: string[] = [];
    diagLogger((line) => lines.push(line), env).warn(args[0] as string, ...args.slice(1));
    return lines;
  }

  it("writes a component's name and every argument after it, not only the first", () => {
    const refused = Object.assign(new Error('Bad Request: body quoted here'), { code: 400 });
    expect(logged('OTLPExportDelegate', 'Export failed with retryable status', refused)).toEqual([
      'OpenTelemetry warning: OTLPExportDelegate Export failed with retryable status (Error 400)',
    ]);
  });

  it('never writes an OTLP header value, decoded or as written, nor a URL password', () => {
    const [line] = logged(
      'Header "x-api-key" has invalid value (k3y/secret-1) and will be ignored;',
      'raw k3y%2Fsecret-1, Bearer tok-2, https://user:pa55@collector.example/v1/traces',
    );
    expect(line).not.toMatch(/secret-1|tok-2|pa55|user:/);
    expect(line).toContain('https://****@collector.example/v1/traces');
    expect(line).toContain('has invalid value (****) and will be ignored; raw ****, ****,');
  });

  it("writes an error's class and code, never its message, and bytes as their count", () => {
    const [line] = logged(
      'could not deserialize',
      new TypeError('k3y/secret-1'),
      new Uint8Array(3),
    );
    expect(line).toBe('OpenTelemetry warning: could not deserialize (TypeError) (3 bytes)');
  });

  it('is what the SDK logs through once tracing is started', () => {
    const lines: string[] = [];
    diag.setLogger(
      diagLogger((line) => lines.push(line), env),
      DiagLogLevel.WARN,
    );
    try {
      diag.createComponentLogger({ namespace: 'OTLPExportDelegate' }).error('Export failed', 7);
      diag.info('not written');
    } finally {
      diag.disable();
    }
    expect(lines).toEqual(['OpenTelemetry error: OTLPExportDelegate Export failed 7']);
  });
});
