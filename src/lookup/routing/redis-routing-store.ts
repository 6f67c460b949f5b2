import type { OnModuleDestroy } from '@nestjs/common';
import { GuardedRedis } from '../../common/redis/guarded-redis';
import {
  sharedFailFastRedis,
  type RedisConnection,
  type SharedRedis,
} from '../../common/redis/redis-connection';
import type { RedisTarget } from '../../config/redis-target';
import { BUILT, RoutingStore, TICKETS, type RoutingBatch, type RoutingRead } from './routing-store';

/**
 * A lookup's one round trip. KEYS[1] the table; ARGV: 'id' or 'number', the key, the complete
 * marker's field. Returns the marker's presence, the entry (or nothing), then field, value pairs
 * of the records the entry names, derived as `recordFields` derives them.
 */
const READ_SCRIPT = `
local h = KEYS[1]
local built = redis.call('HEXISTS', h, ARGV[3])
local id = ARGV[2]
if ARGV[1] == 'number' then
  id = redis.call('HGET', h, 'n:' .. ARGV[2])
  if not id then return {built} end
end
local text = redis.call('HGET', h, 'e:' .. id)
if not text then return {built} end
local e = cjson.decode(text)
local out = {built, text}
if e.d then return out end
local fields = {'o:' .. e.u}
if e.a then
  fields[#fields + 1] = 'a:' .. e.a
  if e.v then fields[#fields + 1] = 'v:' .. e.a .. ':' .. e.v end
  if e.w then
    for _, arm in ipairs(e.w) do
      if arm[1] ~= cjson.null then fields[#fields + 1] = 'v:' .. e.a .. ':' .. arm[1] end
    end
  end
end
if e.s then fields[#fields + 1] = 's:' .. e.s end
if e.q then
  for _, named in ipairs(e.q) do
    fields[#fields + 1] = 'a:' .. named[1]
    if named[2] ~= cjson.null then fields[#fields + 1] = 'v:' .. named[1] .. ':' .. named[2] end
  end
end
local values = redis.call('HMGET', h, unpack(fields))
for i, f in ipairs(fields) do
  if values[i] then
    out[#out + 1] = f
    out[#out + 1] = values[i]
  end
end
return out
`;

/**
 * `RoutingStore.write` in one script. KEYS[1] the table; ARGV[1] the entries as a JSON list of
 * entry texts, ARGV[2] the records as JSON `{field: text}`. A value replaces one of the same or an
 * older ticket; an entry moves its number field with it.
 */
const WRITE_SCRIPT = `
local h = KEYS[1]
local function unindex(o, e)
  if o.d or o.x or not o.p or o.p == '' then return end
  if e and not e.d and not e.x and e.p == o.p then return end
  if redis.call('HGET', h, 'n:' .. o.p) == o.i then redis.call('HDEL', h, 'n:' .. o.p) end
end
for _, text in ipairs(cjson.decode(ARGV[1])) do
  local e = cjson.decode(text)
  local field = 'e:' .. e.i
  local old = redis.call('HGET', h, field)
  local o = old and cjson.decode(old)
  if not o or o.t <= e.t then
    if o then unindex(o, e) end
    redis.call('HSET', h, field, text)
    if not e.d and not e.x then redis.call('HSET', h, 'n:' .. e.p, e.i) end
  end
end
for field, text in pairs(cjson.decode(ARGV[2])) do
  local old = redis.call('HGET', h, field)
  if not old or cjson.decode(old).t <= cjson.decode(text).t then redis.call('HSET', h, field, text) end
end
return 1
`;

/**
 * One step of `RoutingStore.sweep`: HSCAN from ARGV[1] (ARGV[3] fields), removing what a read
 * older than ticket ARGV[2] wrote, number fields whose entry does not route them, and fields of
 * another format (ARGV[4], ARGV[5]: the table's own counters and marker). Returns the next cursor.
 */
const SWEEP_SCRIPT = `
local h, before = KEYS[1], tonumber(ARGV[2])
local res = redis.call('HSCAN', h, ARGV[1], 'COUNT', ARGV[3])
local kv = res[2]
for i = 1, #kv, 2 do
  local f, v = kv[i], kv[i + 1]
  local p = string.sub(f, 1, 2)
  if f == ARGV[4] or f == ARGV[5] then
  elseif p == 'n:' then
    local text = redis.call('HGET', h, 'e:' .. v)
    local e = text and cjson.decode(text)
    if not e or e.d or e.x or ('n:' .. e.p) ~= f then redis.call('HDEL', h, f) end
  elseif p == 'e:' or p == 'a:' or p == 'v:' or p == 's:' or p == 'o:' then
    local o = cjson.decode(v)
    if o.t < before then
      redis.call('HDEL', h, f)
      if p == 'e:' and not o.d and not o.x and o.p and redis.call('HGET', h, 'n:' .. o.p) == o.i then
        redis.call('HDEL', h, 'n:' .. o.p)
      end
    end
  else
    redis.call('HDEL', h, f)
  end
end
return res[1]
`;

/** How many fields one sweep step looks at. */
const SWEEP_COUNT = 1000;

/**
 * Shared by every process: the hash `<QUEUE_PREFIX>:routing`. Lookups read it on a fail-fast
 * connection (Redis down: the lookup falls back to the database at once). Writes go on a connection
 * that waits for Redis only while it first connects: once it has lost Redis, writes fail at once
 * until it is back (a configuration write must not wait on Redis), and `onRecovered` listeners then
 * rebuild what they could not write.
 */
export class RedisRoutingStore extends RoutingStore implements OnModuleDestroy {
  private readonly shared: SharedRedis;
  private readonly reader: RedisConnection;
  private readonly writer: GuardedRedis;
  private readonly key: string;

  constructor(target: RedisTarget, prefix: string) {
    super();
    this.key = `${prefix}:routing`;
    this.shared = sharedFailFastRedis(target);
    this.reader = this.shared.connection;
    this.writer = new GuardedRedis(target, 'the routing table is not written');
  }

  override onRecovered(listener: () => void): void {
    this.writer.onRecovered(listener);
  }

  async read(by: 'id' | 'number', key: string): Promise<RoutingRead> {
    const reply = (await this.reader.eval(READ_SCRIPT, 1, this.key, by, key, BUILT)) as (
      | string
      | number
      | null
    )[];
    const [built, entry, ...pairs] = reply;
    const records = new Map<string, string>();
    for (let i = 0; i + 1 < pairs.length; i += 2) records.set(String(pairs[i]), String(pairs[i + 1]));
    return { entry: typeof entry === 'string' ? entry : null, records, built: built === 1 };
  }


  async ticket(): Promise<number> {
    return this.writer.connection().hincrby(this.key, TICKETS, 1);
  }

  async write(batch: RoutingBatch): Promise<void> {
    if (!batch.entries.length && !batch.records.size) return;
    await this.writer
      .connection()
      .eval(
        WRITE_SCRIPT,
        1,
        this.key,
        JSON.stringify(batch.entries.map((entry) => JSON.stringify(entry))),
        JSON.stringify(Object.fromEntries(batch.records)),
      );
  }

  async sweep(before: number): Promise<void> {
    let cursor = '0';
    do {
      cursor = String(
        await this.writer
          .connection()
          .eval(SWEEP_SCRIPT, 1, this.key, cursor, before, SWEEP_COUNT, BUILT, TICKETS),
      );
    } while (cursor !== '0');
    await this.writer.connection().hset(this.key, BUILT, new Date().toISOString());
  }

  onModuleDestroy(): void {
    this.shared.release();
    this.writer.disconnect();
  }
}
