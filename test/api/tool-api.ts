import type {
  AssistantToolsDto,
  CreateToolResponseDto,
  ToolDetailsDto,
} from '../../src/tool/dto/tool-response.dto';
import type { TestContext, TestUser } from '../utils/create-test-app';
import { dataOf } from './envelope';

/** The tool routes as `user` calls them in a test's setup; each returns the envelope's data. */
export const toolApi = (ctx: TestContext, user: TestUser) => ({
  create: (body: object) =>
    dataOf<CreateToolResponseDto>(
      'POST /tool/create',
      ctx.http().post('/tool/create').set(user.auth).send(body),
    ),
  details: (id: string) =>
    dataOf<ToolDetailsDto>(
      'GET /tool/details',
      ctx.http().get(`/tool/details/${id}`).set(user.auth),
    ),
  attach: (assistantId: string, toolIds: string[]) =>
    dataOf<AssistantToolsDto>(
      'POST /tool/attach',
      ctx.http().post(`/tool/attach/${assistantId}`).set(user.auth).send({ tool_ids: toolIds }),
    ),
});
