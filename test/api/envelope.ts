import type { Response } from 'supertest';
import type { Envelope } from '../../src/common/envelope/envelope';
import type { TestContext, TestUser } from '../utils/create-test-app';

/**
 * The `data` of a 200 envelope. Setup calls go through here: any other answer is not what the
 * test is about, so it throws with the route and the body instead of failing an assertion later.
 */
export async function dataOf<T>(
  what: string,
  response: Response | PromiseLike<Response>,
): Promise<T> {
  const res = await response;
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as Envelope<T>).data;
}

/**
 * The two routes every resource has, as `user` calls them in a test's setup: `post` is
 * `POST /<resource>/<verb>` (`create` unless said), `details` is `GET /<resource>/details/:id`.
 * Each returns the envelope's data.
 */
export function resourceApi<Created, Details>(
  ctx: TestContext,
  user: TestUser,
  resource: string,
  verb = 'create',
) {
  return {
    post: (body: object) =>
      dataOf<Created>(
        `POST /${resource}/${verb}`,
        ctx.http().post(`/${resource}/${verb}`).set(user.auth).send(body),
      ),
    details: (id: string) =>
      dataOf<Details>(
        `GET /${resource}/details`,
        ctx.http().get(`/${resource}/details/${id}`).set(user.auth),
      ),
  };
}
