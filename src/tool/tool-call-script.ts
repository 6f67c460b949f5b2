import type { RedisConnection } from '../common/redis/redis-connection';

/**
 * The one Redis script of tool calls: every step on a call's claim or cancel record is one EVALSHA
 * of it on that record's one key (`KEYS[1]`), the step its first argument. Claim records
 * (`<prefix>:tool-call:claim:<identity>`) hold JSON: `{s: "p", t}` in flight for the job `t`,
 * `{s: "d", r}` answered, `{s: "f"}` failed (see `CallClaims`). Cancel records
 * (`<prefix>:tool-call:cancel:<digest>`) start with their state: `p` started, `s` sent, `c`
 * cancelled before the send, `x` after it (see `CallCancels`).
 *
 * - `claim token value ttl`: sets `value` unless another job's claim is in flight or a first was
 *   answered; `{"claimed", previous or ""}` or `{"held", what holds it}`.
 * - `settle token value ttl`: the same test; writes the answer over the job's own claim (or an
 *   expired one nobody took since): 1, or 0 when another holds it.
 * - `started ttl`: marks the call started unless a record is there; returns that record.
 * - `sending value ttl`: marks the call sent unless it was cancelled; returns the cancel record.
 * - `cancel value ttl`: marks the call cancelled (before or after its send); returns the record.
 */
export const TOOL_CALL_SCRIPT = `local step, v = ARGV[1], redis.call('GET', KEYS[1])
if step == 'claim' or step == 'settle' then
  if v then
    local c = cjson.decode(v)
    if c.s == 'd' or (c.s == 'p' and c.t ~= ARGV[2]) then
      if step == 'claim' then return {'held', v} end
      return 0
    end
  end
  redis.call('SET', KEYS[1], ARGV[3], 'PX', ARGV[4])
  if step == 'claim' then return {'claimed', v or ''} end
  return 1
end
local s = v and string.sub(v, 1, 1)
if step == 'started' then
  if not v then redis.call('SET', KEYS[1], 'p', 'PX', ARGV[2]) end
  return v
elseif step == 'sending' then
  if s == 'c' then return v end
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return false
elseif step == 'cancel' then
  if not v or s == 'p' then redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  elseif s == 's' then redis.call('SET', KEYS[1], 'x', 'KEEPTTL') end
  return v
end
return redis.error_reply('unknown tool-call step: ' .. tostring(step))`;

export type ToolCallStep = 'claim' | 'settle' | 'started' | 'sending' | 'cancel';

/** A connection that runs the script as `toolCallStep(key, step, ...args)`. */
export type ToolCallRedis = RedisConnection & {
  toolCallStep(key: string, step: 'claim', ...args: string[]): Promise<string[]>;
  toolCallStep(key: string, step: 'settle', ...args: string[]): Promise<number>;
  toolCallStep(key: string, step: ToolCallStep, ...args: string[]): Promise<string | null>;
};

/**
 * Defines the script on `redis` (sent as EVALSHA; ioredis loads it again after a Redis restart).
 * Claims and cancels share the connection: defining it twice defines the same script.
 */
export function withToolCallScript(redis: RedisConnection): ToolCallRedis {
  redis.defineCommand('toolCallStep', { numberOfKeys: 1, lua: TOOL_CALL_SCRIPT });
  return redis as ToolCallRedis;
}
