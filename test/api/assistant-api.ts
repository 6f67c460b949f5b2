import type {
  AssistantCreatedDto,
  AssistantDetailsDto,
} from '../../src/assistant/dto/assistant-response.dto';
import { assistantBody } from '../fixtures/assistant';
import type { TestContext, TestUser } from '../utils/create-test-app';
import { dataOf } from './envelope';

/** The assistant routes as `user` calls them in a test's setup; each returns the envelope's data. */
export const assistantApi = (ctx: TestContext, user: TestUser) => ({
  create: (body: object = assistantBody()) =>
    dataOf<AssistantCreatedDto>(
      'POST /assistant/create',
      ctx.http().post('/assistant/create').set(user.auth).send(body),
    ),
  details: (id: string) =>
    dataOf<AssistantDetailsDto>(
      'GET /assistant/details',
      ctx.http().get(`/assistant/details/${id}`).set(user.auth),
    ),
});
