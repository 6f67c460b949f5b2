import { Injectable, Logger } from '@nestjs/common';
// The SDK's low-level server: its high-level `McpServer` advertises only schemas it converts from
// zod, while each tool here advertises its route's schema as the OpenAPI document states it.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { AuthUser } from '../common/auth/auth-user';
import { AppException } from '../common/errors/app.exception';
import { loggableError } from '../common/errors/loggable-error';
import { validateOrThrow } from '../common/validation/validate';
import { type McpTool, McpTools } from './mcp-tools';

const SERVER_INFO = { name: 'voice-assistant-config', version: '1.0.0' };

/** A tool's answer as text (JSON), or its error as the route's would be (status, message, fields). */
const text = (value: unknown, isError = false): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
  ...(isError ? { isError } : {}),
});

/** A tool without input refuses any argument, as its schema says (and a DTO would). */
function noInput(args: unknown): object {
  const fields = Object.keys(args ?? {});
  if (fields.length > 0)
    throw AppException.validation(
      fields.map((field) => ({ field, message: `property ${field} should not exist` })),
    );
  return {};
}

/**
 * One MCP server for one request (the transport is stateless), holding the tools the caller's key
 * may use: a tool a key may not call is not listed, and a call to it is the protocol's
 * invalid-params error, as for a tool that does not exist.
 */
@Injectable()
export class McpServerFactory {
  private readonly logger = new Logger(McpServerFactory.name);

  constructor(private readonly tools: McpTools) {}

  create(user: AuthUser): Server {
    const server = new Server(SERVER_INFO, { capabilities: { tools: {} } });
    const allowed = new Map(this.tools.allowed(user.scopes).map((tool) => [tool.name, tool]));
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [...allowed.values()].map((tool) => this.describe(tool)),
    }));
    server.setRequestHandler(CallToolRequestSchema, (request) => {
      const tool = allowed.get(request.params.name);
      if (!tool)
        throw new McpError(ErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
      return this.call(tool, user, request.params.arguments ?? {});
    });
    return server;
  }

  private describe(tool: McpTool): Tool {
    return {
      name: tool.name,
      description: tool.description,
      inputSchema: this.tools.inputSchema(tool),
      annotations: {
        readOnlyHint: tool.readOnly,
        destructiveHint: !tool.readOnly,
        openWorldHint: tool.openWorld === true,
      },
    };
  }

  /** The input checked by the route's DTO, then the route's service; errors as the route's 4xx. */
  private async call(tool: McpTool, user: AuthUser, args: unknown): Promise<CallToolResult> {
    try {
      const input = tool.input ? await validateOrThrow(tool.input, args) : noInput(args);
      return text(await tool.run(user.user_id, input));
    } catch (error) {
      if (error instanceof AppException)
        return text({ status: error.status, message: error.message, ...(error.data ?? {}) }, true);
      this.logger.error({ err: loggableError(error), tool: tool.name }, 'MCP tool failed');
      return text({ status: 500, message: 'Internal error' }, true);
    }
  }
}
