import { randomUUID } from "node:crypto";
import { getQueueToken } from "@nestjs/bull";
import type { Queue } from "bull";
import { UserEntity } from "../../../src/auth/user.entity";
import { signStandardWebhook } from "../../../src/common/http/webhook-signature";
import { jobQueueToken, type JobQueue } from "../../../src/queue/job-queue";
import { QUEUES } from "../../../src/contracts/queues";
import type {
  ToolCallJobData,
  ToolCallResult,
} from "../../../src/contracts/tool-call.contract";
import type {
  ToolCallCancelJobData,
  ToolCallCancelResult,
} from "../../../src/contracts/tool-call-cancel.contract";
import { CallClaims } from "../../../src/tool/call-claims";
import { assistantApi } from "../../api/assistant-api";
import { toolApi } from "../../api/tool-api";
import { webhookToolBody } from "../../fixtures/tool";
import {
  createTestApp,
  type TestContext,
  type TestUser,
} from "../../utils/create-test-app";
import { CustomerServer } from "../../utils/customer-server";
import { redisConfigured } from "../../utils/test-redis";

type ToolQueue = JobQueue<ToolCallJobData, ToolCallResult>;
type CancelQueue = JobQueue<
  Partial<ToolCallCancelJobData>,
  ToolCallCancelResult
>;
type LoggedEntry = {
  log_id: string;
  status: string;
  request_data: Record<string, unknown>;
  response_data: Record<string, unknown>;
};

/**
 * `irreversible` tools: one request per identity (owner, room, tool, `dedupe_key` values) however
 * many jobs carry it; `idempotent` tools: every request of an identity carries one
 * `Idempotency-Key`. With Redis, two worker processes take the jobs; embedded, one.
 */
describe("tool calls with side effects (e2e)", () => {
  let server: CustomerServer;
  let a: TestContext;
  let b: TestContext;
  let owner: TestUser;
  let queues: ToolQueue[];
  let cancels: CancelQueue;
  let assistantId: string;

  beforeAll(async () => {
    server = await CustomerServer.start();
    a = await createTestApp();
    // A second process that runs jobs too: duplicates meet across processes.
    b = redisConfigured ? await createTestApp() : a;
    owner = await a.newUser();
    assistantId = (await assistantApi(a, owner).create()).assistant_id;
    queues = [a, b].map((ctx) =>
      ctx.app.get<ToolQueue>(jobQueueToken(QUEUES.TOOL_CALL)),
    );
    cancels = b.app.get<CancelQueue>(jobQueueToken(QUEUES.TOOL_CALL_CANCEL));
  });

  afterEach(() => jest.restoreAllMocks());

  afterAll(async () => {
    if (b !== a) await b?.close();
    await a?.close();
    await server?.close();
  });

  async function bookingTool(
    path: string,
    over: Record<string, unknown> = {},
  ): Promise<string> {
    const tools = toolApi(a, owner);
    const { tool_id } = await tools.create(
      webhookToolBody(
        { url: server.url(path), timeout: 5 },
        {
          tool_name: `book_${randomUUID().slice(0, 8)}`,
          tool_parameters: [
            { name: "slot", type: "string" },
            { name: "note", type: "string", required: false },
          ],
          side_effect: "irreversible",
          dedupe_key: ["slot"],
          ...over,
        },
      ),
    );
    await tools.attach(assistantId, [tool_id]);
    return tool_id;
  }

  /** A job as the call stack adds it, each with its own tool_call_id; `n` picks the process's queue. */
  const call = (
    toolId: string,
    room: string,
    args: Record<string, unknown>,
    n = 0,
    toolCallId = `call_${randomUUID()}`,
  ) =>
    queues[n % queues.length].request(
      {
        tool_id: toolId,
        assistant_id: assistantId,
        room_name: room,
        arguments: args,
        tool_call_id: toolCallId,
      },
      { waitMs: 30_000 },
    );

  const cancel = (data: Partial<ToolCallCancelJobData>) =>
    cancels.request(data, { waitMs: 30_000 });

  /** A counter of the processes' scrapes, summed (a job ran in either). */
  async function metric(line: RegExp): Promise<number> {
    let sum = 0;
    for (const ctx of new Set([a, b])) {
      const res = await ctx
        .http()
        .get("/metrics")
        .set("Authorization", `Bearer ${process.env.ADMIN_API_KEY!}`)
        .expect(200);
      sum += Number(line.exec(res.text)?.[1] ?? 0);
    }
    return sum;
  }

  /** Resolves once a job, in either process, has found an identity in flight and waits. */
  function duplicateWaits(): Promise<void> {
    return new Promise((resolve) => {
      for (const ctx of new Set([a, b])) {
        const claims = ctx.app.get(CallClaims);
        const claim = claims.claim.bind(claims);
        jest.spyOn(claims, "claim").mockImplementation(async (...args) => {
          const answer = await claim(...args);
          if (answer.state === "in_flight") resolve();
          return answer;
        });
      }
    });
  }

  async function timeline(room: string) {
    const res = await a
      .http()
      .get(`/logs/timeline/${room}`)
      .set(owner.auth)
      .expect(200);
    return res.body.data.entries as LoggedEntry[];
  }

  it("two calls with the same slot in one room: one request, both get its result", async () => {
    const path = `/book/${randomUUID()}`;
    server.respond(path, {
      status: 200,
      body: { booking: "B-17" },
      delayMs: 300,
    });
    const toolId = await bookingTool(path);
    const room = `room-${randomUUID()}`;

    const results = await Promise.all([
      call(toolId, room, { slot: "10:00", note: "first" }, 0),
      call(toolId, room, { slot: "10:00", note: "again" }, 1),
    ]);

    expect(server.requestsTo(path)).toHaveLength(1);
    expect(results.map((r) => r.result)).toEqual([
      { booking: "B-17" },
      { booking: "B-17" },
    ]);
    expect(results.every((r) => r.status === "success")).toBe(true);
    const first = results.find((r) => r.deduplicated === false)!;
    const duplicate = results.find((r) => r.deduplicated === true)!;
    expect(first).toBeDefined();
    expect(duplicate.first_log_id).toEqual(expect.any(String));

    const entries = await timeline(room);
    expect(entries).toHaveLength(2);
    const sent = entries.find((e) => e.response_data.deduplicated === false)!;
    const deduplicated = entries.find(
      (e) => e.response_data.deduplicated === true,
    )!;
    expect(sent.request_data.webhook_id).toEqual(expect.any(String));
    expect(deduplicated).toMatchObject({
      status: "success",
      response_data: {
        status_code: 200,
        body: { booking: "B-17" },
        first_log_id: sent.log_id,
      },
    });
    expect(deduplicated.request_data.webhook_id).toBeUndefined();
    expect(duplicate.first_log_id).toBe(sent.log_id);

    // Later within the window: the first's result again, without a request.
    const later = await call(toolId, room, { slot: "10:00" });
    expect(later).toMatchObject({
      result: { booking: "B-17" },
      deduplicated: true,
    });
    expect(server.requestsTo(path)).toHaveLength(1);
    expect(
      await metric(
        /^tool_calls_deduplicated_total\{outcome="answered"\} (\d+)$/m,
      ),
    ).toBeGreaterThanOrEqual(1);
  });

  it("the same slot in another room, or another slot, is another call", async () => {
    const path = `/book/${randomUUID()}`;
    server.respond(path, { status: 200, body: { ok: true } });
    const toolId = await bookingTool(path);
    const room = `room-${randomUUID()}`;

    await call(toolId, room, { slot: "11:00" });
    await call(toolId, `room-${randomUUID()}`, { slot: "11:00" });
    await call(toolId, room, { slot: "12:00" });

    expect(server.requestsTo(path)).toHaveLength(3);
  });

  it("a first answered 500 is not kept: the duplicate sends", async () => {
    const path = `/book/${randomUUID()}`;
    let n = 0;
    server.respond(path, () =>
      ++n === 1
        ? { status: 500, body: { error: "down" } }
        : { status: 200, body: { booking: "B-2" } },
    );
    const toolId = await bookingTool(path);
    const room = `room-${randomUUID()}`;

    const failed = await call(toolId, room, { slot: "13:00" });
    const retried = await call(toolId, room, { slot: "13:00" }, 1);

    expect(failed).toMatchObject({
      status: "error",
      error_class: "http_5xx",
      deduplicated: false,
    });
    expect(retried).toMatchObject({
      status: "success",
      result: { booking: "B-2" },
      deduplicated: false,
    });
    expect(server.requestsTo(path)).toHaveLength(2);
  });

  it("20 concurrent duplicates over the processes: one request, 20 equal results", async () => {
    const path = `/book/${randomUUID()}`;
    server.respond(path, {
      status: 200,
      body: { booking: "B-20" },
      delayMs: 200,
    });
    const toolId = await bookingTool(path);
    const room = `room-${randomUUID()}`;

    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(toolId, room, { slot: "14:00", note: `n${i}` }, i),
      ),
    );

    expect(server.requestsTo(path)).toHaveLength(1);
    expect(results.filter((r) => r.deduplicated === false)).toHaveLength(1);
    expect(results.every((r) => r.status === "success")).toBe(true);
    expect(new Set(results.map((r) => JSON.stringify(r.result)))).toEqual(
      new Set([JSON.stringify({ booking: "B-20" })]),
    );
  });

  it("a none tool sends every call, and its results carry no dedupe fields", async () => {
    const path = `/book/${randomUUID()}`;
    server.respond(path, { status: 200, body: { ok: true } });
    const toolId = await bookingTool(path, {
      side_effect: "none",
      dedupe_key: undefined,
    });
    const room = `room-${randomUUID()}`;

    const results = await Promise.all([
      call(toolId, room, { slot: "15:00" }, 0),
      call(toolId, room, { slot: "15:00" }, 1),
    ]);

    expect(server.requestsTo(path)).toHaveLength(2);
    expect(results.map((r) => "deduplicated" in r)).toEqual([false, false]);
  });

  it("an idempotent tool sends every call with one Idempotency-Key per identity, replays too", async () => {
    const path = `/book/${randomUUID()}`;
    server.respond(path, { status: 200, body: { ok: true } });
    const toolId = await bookingTool(path, { side_effect: "idempotent" });
    const room = `room-${randomUUID()}`;

    await Promise.all([
      call(toolId, room, { slot: "16:00", note: "a" }, 0),
      call(toolId, room, { slot: "16:00", note: "b" }, 1),
    ]);
    await call(toolId, room, { slot: "17:00" });
    await call(toolId, `room-${randomUUID()}`, { slot: "16:00" });

    const keys = server
      .requestsTo(path)
      .map((r) => r.headers["idempotency-key"] as string);
    expect(keys).toHaveLength(4);
    expect(keys[0]).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(new Set(keys).size).toBe(3);

    const [entry] = await timeline(room);
    await a
      .http()
      .post(`/logs/replay/${entry.log_id}`)
      .set(owner.auth)
      .expect(200);
    const replayed = server.requestsTo(path).at(-1)!;
    expect(replayed.headers["idempotency-key"]).toBe(keys[0]);
  });

  it("a none tool sends no Idempotency-Key", async () => {
    const path = `/book/${randomUUID()}`;
    server.respond(path, { status: 200, body: { ok: true } });
    const toolId = await bookingTool(path, {
      side_effect: "none",
      dedupe_key: undefined,
    });
    await call(toolId, `room-${randomUUID()}`, { slot: "18:00" });
    expect(
      server.requestsTo(path)[0].headers["idempotency-key"],
    ).toBeUndefined();
  });

  it("a cancel before the send: the call answers cancelled and sends nothing", async () => {
    const path = `/book/${randomUUID()}`;
    server.respond(path, { status: 200, body: { ok: true } });
    const toolId = await bookingTool(path, { notify_cancel: true });
    const room = `room-${randomUUID()}`;
    const toolCallId = `call_${randomUUID()}`;

    await expect(
      cancel({
        room_name: room,
        tool_call_id: toolCallId,
        reason: "caller interrupted",
      }),
    ).resolves.toEqual({ status: "not_found" });
    const result = await call(toolId, room, { slot: "19:00" }, 1, toolCallId);

    expect(result).toMatchObject({
      status: "cancelled",
      result: null,
      error_class: "cancelled",
    });
    expect(result.error).toContain("caller interrupted");
    expect(
      await metric(/^tool_calls_cancelled_total\{stage="not_found"\} (\d+)$/m),
    ).toBeGreaterThanOrEqual(1);
    expect(server.requestsTo(path)).toHaveLength(0);
    const [entry] = await timeline(room);
    expect(entry).toMatchObject({ status: "error", error_class: "cancelled" });
    // Another call of that room is not touched.
    await expect(call(toolId, room, { slot: "20:00" })).resolves.toMatchObject({
      status: "success",
    });
  });

  it("a cancel after the send: one signed tool_call.cancelled POST to a tool with notify_cancel", async () => {
    const path = `/book/${randomUUID()}`;
    server.respond(path, { status: 200, body: { booking: "B-9" } });
    const toolId = await bookingTool(path, { notify_cancel: true });
    const room = `room-${randomUUID()}`;
    const toolCallId = `call_${randomUUID()}`;
    await call(toolId, room, { slot: "21:00" }, 0, toolCallId);

    const first = {
      room_name: room,
      tool_call_id: toolCallId,
      reason: "changed mind",
    };
    await expect(cancel(first)).resolves.toEqual({
      status: "cancelled_after_send",
    });
    await expect(cancel(first)).resolves.toEqual({
      status: "cancelled_after_send",
    });

    const [sent, notice] = server.requestsTo(path);
    expect(server.requestsTo(path)).toHaveLength(2);
    expect(JSON.parse(notice.rawBody)).toEqual({
      type: "tool_call.cancelled",
      room_name: room,
      tool_call_id: toolCallId,
      reason: "changed mind",
    });
    const id = notice.headers["webhook-id"] as string;
    expect(id).toBe(`${sent.headers["webhook-id"] as string}-cancel`);
    const user = await a.dataSource
      .getRepository(UserEntity)
      .findOneByOrFail({ user_id: owner.userId });
    expect(notice.headers["webhook-signature"]).toBe(
      signStandardWebhook(
        user.webhook_secret!,
        id,
        Number(notice.headers["webhook-timestamp"]),
        notice.rawBody,
      ),
    );
    const entries = await timeline(room);
    expect(entries.map((e) => e.request_data.webhook_id)).toEqual([
      sent.headers["webhook-id"],
      id,
    ]);
  });

  it("a cancel after the send to a tool without notify_cancel tells nobody", async () => {
    const path = `/book/${randomUUID()}`;
    server.respond(path, { status: 200, body: { ok: true } });
    const toolId = await bookingTool(path);
    const room = `room-${randomUUID()}`;
    const toolCallId = `call_${randomUUID()}`;
    await call(toolId, room, { slot: "22:00" }, 0, toolCallId);

    await expect(
      cancel({ room_name: room, tool_call_id: toolCallId }),
    ).resolves.toEqual({
      status: "cancelled_after_send",
    });
    expect(server.requestsTo(path)).toHaveLength(1);
  });

  it("a duplicate cancelled while it waits for the first answers cancelled, not its result", async () => {
    const path = `/book/${randomUUID()}`;
    server.respond(path, {
      status: 200,
      body: { booking: "B-30" },
      delayMs: 1500,
    });
    const toolId = await bookingTool(path);
    const room = `room-${randomUUID()}`;
    const waiting = duplicateWaits();
    const first = call(toolId, room, { slot: "23:00" }, 0);
    await server.waitForRequests(path, 1, 10_000);
    const duplicateId = `call_${randomUUID()}`;
    const duplicate = call(toolId, room, { slot: "23:00" }, 1, duplicateId);
    await waiting;

    await expect(
      cancel({
        room_name: room,
        tool_call_id: duplicateId,
        reason: "caller hung up",
      }),
    ).resolves.toEqual({ status: "cancelled_before_send" });
    const [sent, cancelled] = await Promise.all([first, duplicate]);

    expect(sent).toMatchObject({ status: "success", deduplicated: false });
    expect(cancelled).toMatchObject({
      status: "cancelled",
      result: null,
      error_class: "cancelled",
    });
    expect(cancelled.error).toContain("caller hung up");
    expect(server.requestsTo(path)).toHaveLength(1);
    const entries = await timeline(room);
    expect(entries.map((e) => e.status).sort()).toEqual(["error", "success"]);
    expect(entries.find((e) => e.status === "error")).toMatchObject({
      error_class: "cancelled",
    });
  });

  it("a cancel job without room_name or tool_call_id completes with an error naming the field", async () => {
    await expect(cancel({ room_name: "r" })).resolves.toEqual({
      status: "error",
      error: expect.stringMatching(
        /^malformed tool-call-cancel job: tool_call_id /,
      ),
    });
    await expect(cancel({ tool_call_id: "c" })).resolves.toEqual({
      status: "error",
      error: expect.stringMatching(
        /^malformed tool-call-cancel job: room_name /,
      ),
    });
    if (!redisConfigured) return;
    // As a plain Bull producer adds it: completed with the answer, nothing failed or left active.
    const bull = b.app.get<Queue>(getQueueToken(QUEUES.TOOL_CALL_CANCEL));
    const job = await bull.add({ reason: "no ids" });
    await expect(job.finished()).resolves.toMatchObject({ status: "error" });
    expect(await job.getState()).toBe("completed");
    expect(await bull.getJobCounts()).toMatchObject({
      active: 0,
      failed: 0,
      waiting: 0,
    });
  });
});
