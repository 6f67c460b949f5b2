import { Module } from '@nestjs/common';
import { ActivityLogModule } from '../activity-log/activity-log.module';
import { AssistantModule } from '../assistant/assistant.module';
import { ConfigBundleModule } from '../config-bundle/config-bundle.module';
import { InboundContextModule } from '../inbound-context/inbound-context.module';
import { LookupModule } from '../lookup/lookup.module';
import { McpController } from './mcp.controller';
import { McpServerFactory } from './mcp-server.factory';
import { McpTools } from './mcp-tools';

/** The MCP server: the REST routes' services as tools for agents, under the same keys. */
@Module({
  imports: [
    ConfigBundleModule,
    AssistantModule,
    InboundContextModule,
    LookupModule,
    ActivityLogModule,
  ],
  controllers: [McpController],
  providers: [McpTools, McpServerFactory],
})
export class McpModule {}
