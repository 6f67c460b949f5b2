import type {
  AssistantCreatedDto,
  AssistantDetailsDto,
} from '../../src/assistant/dto/assistant-response.dto';
import type { AssistantVersionDto } from '../../src/assistant/dto/assistant-version.dto';
import { assistantBody } from '../fixtures/assistant';
import type { TestContext, TestUser } from '../utils/create-test-app';
import { dataOf, resourceApi } from './envelope';

/** The assistant routes as `user` calls them in a test's setup; each returns the envelope's data. */
export const assistantApi = (ctx: TestContext, user: TestUser) => {
  const { post, details } = resourceApi<AssistantCreatedDto, AssistantDetailsDto>(
    ctx,
    user,
    'assistant',
  );
  return {
    create: (body: object = assistantBody()) => post(body),
    details,
    /** Publishes the working copy; the new version's number. */
    publish: async (assistantId: string, body: object = {}) =>
      (
        await dataOf<AssistantVersionDto>(
          'POST /assistant/publish',
          ctx.http().post(`/assistant/publish/${assistantId}`).set(user.auth).send(body),
        )
      ).version,
  };
};
