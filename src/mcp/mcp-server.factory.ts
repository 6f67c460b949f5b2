import { Injectable, Logger } from '@nestjs/common';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
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

/**
 * One MCP server for one request (the transport is stateless), holding the tools the caller's key
 * may use: a tool a key may not call is not listed, so a call to it is the protocol's unknown-tool error.
 */
@Injectable()
export class McpServerFactory {
  private readonly logger = new Logger(McpServerFactory.name);

  constructor(private readonly tools: McpTools) {}

  create(user: AuthUser): McpServer {
    const server = new McpServer(SERVER_INFO, { capabilities: { tools: {} } });
    for (const tool of this.tools.allowed(user.scopes))
      server.registerTool(
        tool.name,
        {
          description: tool.description,
          inputSchema: tool.shape,
          annotations: {
            readOnlyHint: tool.readOnly,
            destructiveHint: !tool.readOnly,
            openWorldHint: tool.openWorld === true,
          },
        },
        (args: unknown) => this.call(tool, user, args),
      );
    return server;
  }

  /** The input checked by the route's DTO, then the route's service; errors as the route's 4xx. */
  private async call(tool: McpTool, user: AuthUser, args: unknown): Promise<CallToolResult> {
    try {
      // A tool without input is called with the request's extras in place of arguments.
      const input = tool.input ? await validateOrThrow(tool.input, args) : {};
      return text(await tool.run(user.user_id, input));
    } catch (error) {
      if (error instanceof AppException)
        return text({ status: error.status, message: error.message, ...(error.data ?? {}) }, true);
      this.logger.error({ err: loggableError(error), tool: tool.name }, 'MCP tool failed');
      return text({ status: 500, message: 'Internal error' }, true);
    }
  }
}
