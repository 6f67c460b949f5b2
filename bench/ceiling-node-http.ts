import { createServer } from 'node:http';

/** The platform ceiling: a bare `node:http` route answering the same small JSON, nothing else. */
const body = JSON.stringify({ ok: true });
createServer((req, res) => {
  if (req.url === '/ping') {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
    return;
  }
  res.writeHead(404).end();
}).listen(Number(process.env.PORT ?? 3100), '127.0.0.1', () => process.send?.('ready'));
