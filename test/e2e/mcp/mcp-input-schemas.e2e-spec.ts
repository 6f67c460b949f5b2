import { randomUUID } from 'node:crypto';
import Ajv from 'ajv';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { getMetadataStorage } from 'class-validator';
import { McpTools } from '../../../src/mcp/mcp-tools';
import { callTool, suiteMcpClients } from '../../api/mcp-client';
import { appSuite } from '../../utils/create-test-app';

type Schema = Record<string, unknown>;
interface Operation {
  parameters?: { name: string; in: string; required?: boolean; schema: Schema }[];
  requestBody?: { content: { 'application/json': { schema: { $ref: string } } } };
}

/** For each tool: one input its route's DTO refuses, and the field its error names. */
const REFUSED: Record<string, { args: Record<string, unknown>; field: string }> = {
  export_config: { args: { revision: 'r1' }, field: 'revision' },
  plan_config: { args: { bundle: {}, base_revision: 'r'.repeat(65) }, field: 'base_revision' },
  apply_config: { args: { bundle: {} }, field: 'base_revision' },
  list_assistants: { args: { limit: 101 }, field: 'limit' },
  get_assistant: { args: { assistant_id: randomUUID(), version: 0 }, field: 'version' },
  render_assistant: {
    args: { assistant_id: randomUUID(), call: { call_type: 'outbound' } },
    field: 'call.call_type',
  },
  list_inbound: { args: { page: 0 }, field: 'page' },
  search_logs: { args: { log_type: 'phone_call' }, field: 'log_type' },
  test_strategy: {
    args: { strategy_id: randomUUID(), assistant_id: 'not-a-uuid' },
    field: 'assistant_id',
  },
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The rules a property's schema states that these checks compare. */
const RULES = ['type', 'enum', 'format', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum'];
const rulesOf = (schema: Schema | undefined) =>
  Object.fromEntries(
    RULES.filter((rule) => schema?.[rule] !== undefined).map((r) => [r, schema![r]]),
  );
/** OpenAPI 3.0's `nullable` beside a type, as JSON Schema says it. */
const asJson = ({ nullable, ...schema }: Schema): Schema =>
  nullable === true ? { ...schema, type: [schema.type, 'null'] } : schema;

/**
 * Each MCP tool advertises its route's input as the OpenAPI document states it (read from the
 * DTOs' rules): the same required fields, enums, lengths, formats and bounds; the fields its DTO
 * has; and for each tool an input the schema refuses is refused by the server too, naming the field.
 */
describe('POST /mcp: the input schemas of the tools (e2e)', () => {
  const suite = appSuite({ users: ['alice'] });
  let tools: Tool[];
  let document: {
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, Schema> };
  };
  const mcp = suiteMcpClients(() => suite.ctx.app, 'e2e-schemas');

  beforeAll(async () => {
    tools = (await (await mcp.connect(suite.alice.apiKey)).listTools()).tools;
    document = (await suite.ctx.http().get('/docs-json').expect(200)).body as typeof document;
  });

  it("states each route's parameters and body as the OpenAPI document does", () => {
    const registry = suite.ctx.app.get(McpTools);
    expect(tools.map((tool) => tool.name).sort()).toEqual(Object.keys(REFUSED).sort());
    for (const tool of registry.all.filter((t) => t.route)) {
      const advertised = tools.find((t) => t.name === tool.name)!.inputSchema as Schema & {
        properties: Record<string, Schema>;
        required?: string[];
      };
      const operation = document.paths[tool.route!.path][tool.route!.method];
      const ref = operation.requestBody?.content['application/json'].schema.$ref;
      const body = ref ? document.components.schemas[ref.split('/').pop()!] : undefined;
      const expected: Record<string, Schema> = {
        ...Object.fromEntries(
          (operation.parameters ?? [])
            .filter((p) => p.in !== 'header')
            .map((p) => [p.name, asJson(p.schema)]),
        ),
        ...Object.fromEntries(
          Object.entries((body?.properties ?? {}) as Record<string, Schema>).map(([n, s]) => [
            n,
            asJson(s),
          ]),
        ),
      };
      const required = [
        ...(operation.parameters ?? []).filter((p) => p.required).map((p) => p.name),
        ...((body?.required as string[] | undefined) ?? []),
      ];
      expect({ tool: tool.name, required: [...(advertised.required ?? [])].sort() }).toEqual({
        tool: tool.name,
        required: required.sort(),
      });
      for (const [name, schema] of Object.entries(expected))
        expect({ tool: tool.name, name, rules: rulesOf(advertised.properties[name]) }).toEqual({
          tool: tool.name,
          name,
          rules: rulesOf(schema),
        });
      // The fields the DTO has, no more, no fewer (it refuses any other).
      const fields = new Set(
        getMetadataStorage()
          .getTargetValidationMetadatas(tool.input!, '', true, false)
          .map((rule) => rule.propertyName),
      );
      expect({ tool: tool.name, fields: Object.keys(advertised.properties).sort() }).toEqual({
        tool: tool.name,
        fields: [...fields].sort(),
      });
      expect(advertised.additionalProperties).toBe(false);
    }
    const apply = tools.find((t) => t.name === 'apply_config')!.inputSchema;
    expect(apply.required).toEqual(expect.arrayContaining(['bundle', 'base_revision']));
    expect((apply.properties as Record<string, Schema>).base_revision).toMatchObject({
      maxLength: 64,
    });
  });

  it.each(Object.entries(REFUSED))(
    '%s: an input its schema refuses is an MCP error naming the field',
    async (name, { args, field }) => {
      const schema = tools.find((tool) => tool.name === name)!.inputSchema;
      const ajv = new Ajv({ strict: false, allErrors: true, formats: { uuid: UUID } });
      const validate = ajv.compile(schema);
      expect(validate(args)).toBe(false);
      const client = await mcp.connect(suite.alice.apiKey);
      const { isError, answer } = await callTool(client, name, args);
      expect({ isError, status: answer.status }).toEqual({ isError: true, status: 400 });
      expect(answer.errors).toEqual([expect.objectContaining({ field })]);
    },
  );
});
