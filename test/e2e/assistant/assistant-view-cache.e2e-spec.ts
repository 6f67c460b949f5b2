import { connect, createServer, type Server, type Socket } from 'node:net';
import type { ConfigService } from '@nestjs/config';
import Redis from 'ioredis';
import { AssistantRepository } from '../../../src/assistant/assistant.repository';
import type { AssistantDetailsDto } from '../../../src/assistant/dto/assistant-response.dto';
import { VersionStamps } from '../../../src/common/cache/version-stamps';
import type { Paginated } from '../../../src/common/pagination/pagination-query.dto';
import type { AppConfig } from '../../../src/config/app-config';
import { assistantApi } from '../../api/assistant-api';
import { dataOf } from '../../api/envelope';
import { toolApi } from '../../api/tool-api';
import { assistantBody } from '../../fixtures/assistant';
import { staticToolBody } from '../../fixtures/tool';
import { waitUntil } from '../../faults/support/services';
import type { TestContext } from '../../utils/create-test-app';
import { freePort } from '../../utils/free-port';
import { twoProcessesWithUser } from '../../utils/two-processes';

const redis = Boolean(process.env.REDIS_URL);

/** A TCP relay to Redis that can be cut and reopened: one process losing Redis while others keep it. */
class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  constructor(
    readonly port: number,
    private readonly host: string,
    private readonly targetPort: number,
  ) {}

  open(): Promise<void> {
    this.server = createServer((inbound) => {
      const outbound = connect(this.targetPort, this.host);
      for (const socket of [inbound, outbound]) {
        this.sockets.add(socket);
        socket
          .on('error', () => undefined)
          .on('close', () => {
            inbound.destroy();
            outbound.destroy();
            this.sockets.delete(socket);
          });
      }
      inbound.pipe(outbound).pipe(inbound);
    });
    return new Promise((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
  }

  cut(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    const server = this.server;
    this.server = undefined;
    return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
}

/**
 * Each API process keeps the assistant views it served in memory (AssistantViewCache). A client
 * that has its answer to a write, through any process, must read that write back from every
 * process at once: no wait, no retry. On Redis, `a` writes and `b` (a second process sharing the
 * database and Redis) reads; embedded, one process does both.
 */
describe('assistant details and list cache across processes (e2e)', () => {
  const two = twoProcessesWithUser();

  const detailsOn = (ctx: TestContext, id: string) => assistantApi(ctx, two.user).details(id);
  const listOn = (ctx: TestContext) =>
    dataOf<Paginated<AssistantDetailsDto>>(
      'GET /assistant/list',
      ctx.http().get('/assistant/list?page=1&limit=50').set(two.user.auth),
    );

  it('serves repeated reads from memory', async () => {
    const { assistant_id: id } = await assistantApi(two.a, two.user).create();
    await detailsOn(two.b, id);
    const reads = jest.spyOn(two.b.app.get(AssistantRepository), 'findOwnedLean');
    try {
      for (let i = 0; i < 3; i++) expect((await detailsOn(two.b, id)).assistant_id).toBe(id);
      expect(reads).not.toHaveBeenCalled();
    } finally {
      reads.mockRestore();
    }
  });

  it('an update through one process is read back at once through the other', async () => {
    const { assistant_id: id } = await assistantApi(two.a, two.user).create();
    for (let round = 1; round <= 5; round++) {
      await detailsOn(two.b, id); // cached on b
      await listOn(two.b);
      await two.a
        .http()
        .patch(`/assistant/update/${id}`)
        .set(two.user.auth)
        .send({ assistant_name: `Renamed ${round}` })
        .expect(200);
      expect((await detailsOn(two.b, id)).assistant_name).toBe(`Renamed ${round}`);
      const listed = (await listOn(two.b)).items.find((item) => item.assistant_id === id);
      expect(listed?.assistant_name).toBe(`Renamed ${round}`);
    }
  });

  it('attaching and deleting a tool (another module’s tables) shows in the view at once', async () => {
    const { assistant_id: id } = await assistantApi(two.a, two.user).create();
    const { tool_id: toolId } = await toolApi(two.a, two.user).create(
      staticToolBody('fixed_answer', 42),
    );
    expect((await detailsOn(two.b, id)).tool_ids).toEqual([]);
    await toolApi(two.a, two.user).attach(id, [toolId]);
    expect((await detailsOn(two.b, id)).tool_ids).toEqual([toolId]);
    await two.a.http().delete(`/tool/delete/${toolId}`).set(two.user.auth).expect(200);
    expect((await detailsOn(two.b, id)).tool_ids).toEqual([]);
  });

  it('a created assistant is listed, and a deleted one is gone, at once', async () => {
    const before = await listOn(two.b);
    const { assistant_id: id } = await assistantApi(two.a, two.user).create(
      assistantBody({ assistant_name: 'Newest' }),
    );
    const after = await listOn(two.b);
    expect(after.total).toBe(before.total + 1);
    expect(after.items[0]).toMatchObject({ assistant_id: id, assistant_name: 'Newest' });

    await detailsOn(two.b, id);
    await two.a.http().delete(`/assistant/delete/${id}`).set(two.user.auth).expect(200);
    await two.b.http().get(`/assistant/details/${id}`).set(two.user.auth).expect(404);
    expect((await listOn(two.b)).total).toBe(before.total);
  });

  it("never serves one user's cached view to another", async () => {
    const { assistant_id: id } = await assistantApi(two.a, two.user).create();
    await detailsOn(two.b, id);
    const other = await two.a.newUser();
    await two.b.http().get(`/assistant/details/${id}`).set(other.auth).expect(404);
  });
});

(redis ? describe : describe.skip)('VersionStamps on Redis (e2e)', () => {
  const prefix = `vac-stamps-${process.pid}-${Date.now()}`;
  const stampsAt = (url: string) =>
    new VersionStamps({
      get: (key: string) => ({ 'queue.redis': { kind: 'node', url }, 'queue.prefix': prefix })[key],
    } as unknown as ConfigService<AppConfig, true>);
  let stamps: VersionStamps;
  let client: Redis;

  beforeAll(async () => {
    stamps = stampsAt(process.env.REDIS_URL!);
    client = new Redis(process.env.REDIS_URL!);
    // Until its connection is up, every read is null (no offline queue): wait for a stamp.
    await waitUntil('a view stamp', async () => (await stamps.read('warm-up')) !== null, 2000, 20);
  });
  afterAll(async () => {
    await client.del(
      ...['views', 'warm-up', 'partitioned'].map((name) => `${prefix}:view-stamp:${name}`),
    );
    client.disconnect();
    stamps.onModuleDestroy();
  });

  it('gives no stamp until one is set, then the same one until it is renewed', async () => {
    expect(await stamps.read('views')).toBeNull();
    const first = await stamps.read('views');
    expect(first).toEqual(expect.any(String));
    expect(await stamps.read('views')).toBe(first);
    await stamps.renew('views');
    const second = await stamps.read('views');
    expect(second).not.toBe(first);
  });

  it('after Redis loses the key (restarted empty), never hands out a stamp used before', async () => {
    const before = await stamps.read('views');
    await client.del(`${prefix}:view-stamp:views`);
    expect(await stamps.read('views')).toBeNull();
    const after = await stamps.read('views');
    expect(after).toEqual(expect.any(String));
    expect(after).not.toBe(before);
  });

  it('a renewal Redis did not take is made once it answers again, and is not trusted meanwhile', async () => {
    const { hostname, port: redisPort } = new URL(process.env.REDIS_URL!);
    const proxy = new TcpProxy(await freePort(), hostname, Number(redisPort || 6379));
    await proxy.open();
    const behind = stampsAt(`redis://127.0.0.1:${proxy.port}`);
    try {
      await waitUntil(
        'a stamp through the relay',
        async () => (await behind.read('partitioned')) !== null,
        5000,
        20,
      );
      const before = await stamps.read('partitioned');
      expect(await behind.read('partitioned')).toBe(before);

      await proxy.cut(); // this process loses Redis; the others do not
      await expect(behind.renew('partitioned')).rejects.toThrow();
      expect(await behind.read('partitioned')).toBeNull();
      expect(await stamps.read('partitioned')).toBe(before);

      await proxy.open();
      await waitUntil(
        'the owed renewal',
        async () => (await stamps.read('partitioned')) !== before,
        5000,
        20,
      );
      await waitUntil(
        'a trusted stamp again',
        async () => (await behind.read('partitioned')) !== null,
        5000,
        20,
      );
      expect(await behind.read('partitioned')).toBe(await stamps.read('partitioned'));
    } finally {
      behind.onModuleDestroy();
      await proxy.cut();
    }
  });

  it('without Redis: reads give null (callers read the database) and renewals fail', async () => {
    const dead = stampsAt(`redis://127.0.0.1:${await freePort()}`);
    try {
      expect(await dead.read('views')).toBeNull();
      await expect(dead.renew('views')).rejects.toThrow();
    } finally {
      dead.onModuleDestroy();
    }
  });
});
