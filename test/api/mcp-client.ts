import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** The text of a tool's answer, parsed (every tool of `POST /mcp` answers JSON). */
export const answerOf = (result: unknown) =>
  JSON.parse(((result as CallToolResult).content[0] as { text: string }).text) as Record<
    string,
    unknown
  >;

/**
 * The SDK's own client over Streamable HTTP, as an agent reaches `POST /mcp` with a Bearer key.
 * `connect` opens one client per call (`headers` sent with each of its requests); `close` closes
 * every client opened.
 */
export function mcpClients(url: () => URL, name: string) {
  const clients: Client[] = [];
  return {
    async connect(key: string, headers: Record<string, string> = {}): Promise<Client> {
      const client = new Client({ name, version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(url(), {
          requestInit: { headers: { ...headers, Authorization: `Bearer ${key}` } },
        }),
      );
      clients.push(client);
      return client;
    },
    close: () => Promise.all(clients.splice(0).map((client) => client.close())),
  };
}

/**
 * `mcpClients` to an e2e suite's application, declared after its `appSuite`: the application
 * listens on a free loopback port before the suite's other `beforeAll` hooks run, and every client
 * is closed after the suite.
 */
export function suiteMcpClients(app: () => INestApplication, name: string) {
  let url: URL;
  const clients = mcpClients(() => url, name);
  beforeAll(async () => {
    await app().listen(0, '127.0.0.1');
    const { port } = app().getHttpServer().address() as AddressInfo;
    url = new URL(`http://127.0.0.1:${port}/mcp`);
  });
  afterAll(() => clients.close());
  return clients;
}

/** Calls a tool and parses its answer; `isError` says whether it answered an MCP tool error. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { isError: result.isError === true, answer: answerOf(result) };
}
