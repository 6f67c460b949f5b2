import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeEndpoint } from '@nestjs/swagger';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Request, Response } from 'express';
import { RequiresScope } from '../auth/api-key-scope';
import { RequestTimeout } from '../common/timeout/request-timeout';
import type { AuthUser } from '../common/auth/auth-user';
import { CurrentUser } from '../common/auth/current-user.decorator';
import { McpServerFactory } from './mcp-server.factory';

/**
 * `POST /mcp`: the Model Context Protocol over Streamable HTTP, stateless (no session: each request
 * carries its key and gets its own server). Any valid key gets in (the key guard answers 401
 * before); which tools it sees depends on its scopes. Not in the OpenAPI document: its body is
 * JSON-RPC, described by the protocol.
 */
@Controller('mcp')
export class McpController {
  constructor(private readonly servers: McpServerFactory) {}

  @Post()
  @HttpCode(200)
  @RequiresScope(null)
  // test_strategy waits on the customer's webhook as its route does (up to the longest strategy timeout).
  @RequestTimeout(15_000)
  @ApiExcludeEndpoint()
  async handle(
    @CurrentUser() user: AuthUser,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const server = this.servers.create(user);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  }
}
