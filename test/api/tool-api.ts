import type {
  AssistantToolsDto,
  CreateToolResponseDto,
  ToolDetailsDto,
} from '../../src/tool/dto/tool-response.dto';
import type { TestContext, TestUser } from '../utils/create-test-app';
import { dataOf, resourceApi } from './envelope';

/** The tool routes as `user` calls them in a test's setup; each returns the envelope's data. */
export const toolApi = (ctx: TestContext, user: TestUser) => {
  const { post, details } = resourceApi<CreateToolResponseDto, ToolDetailsDto>(ctx, user, 'tool');
  return {
    create: post,
    details,
    attach: (assistantId: string, toolIds: string[]) =>
      dataOf<AssistantToolsDto>(
        'POST /tool/attach',
        ctx.http().post(`/tool/attach/${assistantId}`).set(user.auth).send({ tool_ids: toolIds }),
      ),
  };
};
