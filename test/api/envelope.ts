import type { Response } from 'supertest';
import type { Envelope } from '../../src/common/envelope/envelope';

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
