/**
 * `npx ts-node --transpile-only bench/otlp-sink.ts [port]`: an OTLP/HTTP trace receiver on loopback
 * that accepts every export and discards it, for the tracing-on side of a bench: point a service's
 * `OTEL_EXPORTER_OTLP_ENDPOINT` at `http://127.0.0.1:<port>` (default 4329; either protocol). On
 * SIGINT or SIGTERM it prints the exports and bytes it received, so a run shows spans were sent.
 *
 * Tracing off against on, one build (see docs/benchmarks.md, "Tracing off and on"):
 *   BENCH_AB_ENV_B=OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4329 \
 *     npm run bench:ab-lookups -- <dist> <copy of dist>
 */
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 4329);
let received = 0;
let bytes = 0;

const server = createServer((req, res) => {
  req.on('data', (chunk: Buffer) => (bytes += chunk.length));
  req.on('end', () => {
    if (req.method === 'POST' && req.url === '/v1/traces') received += 1;
    const json = String(req.headers['content-type']).includes('json');
    res.writeHead(200, { 'Content-Type': json ? 'application/json' : 'application/x-protobuf' });
    res.end(json ? '{}' : '');
  });
});

server.listen(port, '127.0.0.1', () => console.log(`OTLP sink on http://127.0.0.1:${port}`));
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    console.log(`OTLP sink: ${received} exports, ${bytes} bytes received`);
    server.close(() => process.exit(0));
  });
