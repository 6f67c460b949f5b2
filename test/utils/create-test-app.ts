import type { INestApplication, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request, { type Test as PendingRequest } from 'supertest';
import { DataSource } from 'typeorm';
import { AppModule, type AppModuleOptions } from '../../src/app.module';
import { configureApp } from '../../src/bootstrap/configure-app';
import type { CreatedKeyDto } from '../../src/auth/dto/auth-response.dto';
import { dataOf } from '../api/envelope';
import { newUserBody } from '../fixtures/user';
import { CallProducer } from './call-producer';
import { CustomerServer } from './customer-server';
import { OpenApiConformance } from './openapi-conformance';

export interface TestUser {
  userId: string;
  apiKey: string;
  auth: { Authorization: string };
}

export interface TestContext {
  app: INestApplication;
  /** supertest bound to the app's HTTP server. */
  http: () => ReturnType<typeof request>;
  dataSource: DataSource;
  /**
   * A fresh user with a fresh API key, created through `POST /auth/create-key`; `scopes` as the
   * route takes them (default: the route's default, `["config"]`).
   */
  newUser(scopes?: string[]): Promise<TestUser>;
  close(): Promise<void>;
}

export interface TestAppOptions extends AppModuleOptions {
  /** Test-only controllers mounted beside the real ones (e.g. a route that throws). */
  controllers?: Type<unknown>[];
  /** Environment overrides applied while the app boots (config is read at boot), then restored. */
  env?: Record<string, string | undefined>;
}

const HTTP_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options']);

/**
 * supertest whose every awaited response is also checked against the OpenAPI document: a
 * response that disagrees with it rejects, naming the route, the status and what differs.
 */
function checkedAgainst(
  conformance: OpenApiConformance,
  agent: ReturnType<typeof request>,
): ReturnType<typeof request> {
  return new Proxy(agent, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || !HTTP_METHODS.has(String(property))) return value;
      return (...args: unknown[]) => {
        const test = (value as (...a: unknown[]) => PendingRequest).apply(target, args);
        const then = test.then.bind(test);
        test.then = ((onFulfilled, onRejected) =>
          then((res) => {
            const problems = conformance.check(res);
            if (problems.length > 0)
              throw new Error(
                `response does not match the OpenAPI document:\n${problems.join('\n')}`,
              );
            return res;
          }).then(onFulfilled, onRejected)) as PendingRequest['then'];
        return test;
      };
    },
  });
}

/** Boots the whole application, configured exactly as `main.ts` configures it, on a random port. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestContext> {
  const saved: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(options.env ?? {})) {
    saved[key] = process.env[key];
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  let app: INestApplication;
  try {
    const moduleRef = await Test.createTestingModule({
      imports: [AppModule.register(options)],
      controllers: options.controllers ?? [],
    }).compile();
    app = moduleRef.createNestApplication({ bodyParser: false, logger: false });
    configureApp(app);
    await app.init();
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
  const conformance = OpenApiConformance.attach(app);
  const http = () => checkedAgainst(conformance, request(app.getHttpServer()));
  const adminKey = options.env?.ADMIN_API_KEY ?? process.env.ADMIN_API_KEY!;

  return {
    app,
    http,
    dataSource: app.get(DataSource),
    async newUser(scopes?: string[]): Promise<TestUser> {
      const { api_key: apiKey, user_id: userId } = await dataOf<CreatedKeyDto>(
        'POST /auth/create-key',
        http()
          .post('/auth/create-key')
          .set('Authorization', `Bearer ${adminKey}`)
          .send(newUserBody(scopes)),
      );
      return { userId, apiKey, auth: { Authorization: `Bearer ${apiKey}` } };
    },
    close: () => app.close(),
  };
}

export interface SuiteOptions<N extends string> {
  /** Users created once the app is up, in this order. */
  users?: readonly N[];
  /** Scopes of some of them, as `newUser` takes them (the others get the route's default). */
  scopes?: Partial<Record<N, string[]>>;
  app?: TestAppOptions;
  /** Also start a `CustomerServer` before the app. */
  server?: boolean;
  /** Also open a `CallProducer` on the app. */
  producer?: boolean;
}

export type Suite<N extends string> = {
  ctx: TestContext;
  server: CustomerServer;
  producer: CallProducer;
} & Record<N, TestUser>;

/**
 * The usual setup of a suite on one app: booted before its tests (with a customer server and a
 * producer when asked), its users created, and all of it closed after. The returned object is
 * filled in by `beforeAll`.
 */
export function appSuite<const N extends string = never>(options: SuiteOptions<N> = {}): Suite<N> {
  const suite = {} as Suite<N>;
  beforeAll(async () => {
    if (options.server) suite.server = await CustomerServer.start();
    suite.ctx = await createTestApp(options.app);
    if (options.producer) suite.producer = new CallProducer(suite.ctx);
    const names = options.users ?? [];
    const users = await Promise.all(names.map((name) => suite.ctx.newUser(options.scopes?.[name])));
    names.forEach((name, i) => Object.assign(suite, { [name]: users[i] }));
  });
  afterAll(async () => {
    await suite.producer?.close();
    await suite.ctx?.close();
    await suite.server?.close();
  });
  return suite;
}
