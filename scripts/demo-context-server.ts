/**
 * A stand-in for a customer's context endpoint, for the first run: answers every POST with the
 * caller's context, as an inbound context strategy's webhook must.
 *
 *   npm run demo:context            # http://127.0.0.1:4010/context  (DEMO_CONTEXT_PORT to change)
 */
import { createServer } from 'node:http';

const port = Number(process.env.DEMO_CONTEXT_PORT ?? 4010);

const server = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString()));
  req.on('end', () => {
    if (req.method !== 'POST') {
      res.writeHead(405, { Allow: 'POST' }).end();
      return;
    }
    let call: { caller_number?: unknown } = {};
    try {
      call = JSON.parse(body) as typeof call;
    } catch {
      // The service always sends JSON; answer anyway.
    }
    const context = {
      customer_name: 'Asha',
      tier: 'gold',
      caller_number: typeof call.caller_number === 'string' ? call.caller_number : null,
    };
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ context }));
    process.stdout.write(`context served for ${String(context.caller_number)}\n`);
  });
});

server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`demo context endpoint on http://127.0.0.1:${port}/context\n`);
});

const stop = () => server.close(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
