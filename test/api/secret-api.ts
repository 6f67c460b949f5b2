import type { SecretDetailsDto } from '../../src/secret/dto/secret-response.dto';
import type { TestContext, TestUser } from '../utils/create-test-app';
import { dataOf } from './envelope';

/** The secret routes as `user` calls them in a test's setup. */
export const secretApi = (ctx: TestContext, user: TestUser) => ({
  create: (secret_name: string, value: string) =>
    dataOf<SecretDetailsDto>(
      'POST /secret/create',
      ctx.http().post('/secret/create').set(user.auth).send({ secret_name, value }),
    ),
  rotate: (name: string, value: string) =>
    dataOf<SecretDetailsDto>(
      'PATCH /secret/update',
      ctx.http().patch(`/secret/update/${name}`).set(user.auth).send({ value }),
    ),
  details: (name: string) =>
    dataOf<SecretDetailsDto>(
      'GET /secret/details',
      ctx.http().get(`/secret/details/${name}`).set(user.auth),
    ),
});
