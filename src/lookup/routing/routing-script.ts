import type { RedisConnection } from '../../common/redis/redis-connection';

/**
 * The one Redis script of the routing table: each step is one EVALSHA of it on the table's one key
 * (`KEYS[1]`, so it runs unchanged on a Redis Cluster), the step its first argument.
 *
 * - `read by key built`: a lookup's one round trip. `by` is 'id' or 'number', `built` the complete
 *   marker's field. Returns the marker's presence (read only when it matters: no entry, or a
 *   deleted one; 1 beside an entry that routes), the entry (or nothing), then field, value pairs
 *   of the records the entry names, derived as `recordFields` derives them.
 * - `write entries records`: `RoutingStore.write`. `entries` is a JSON list of entry texts,
 *   `records` JSON `{field: text}`. A value replaces one of the same or an older ticket; an entry
 *   moves its number field with it. Returns 1.
 * - `sweep cursor before count built tickets`: one step of `RoutingStore.sweep`. HSCAN from
 *   `cursor` (`count` fields), removing what a read older than ticket `before` wrote, number fields
 *   whose entry does not route them, and fields of another format (`built`, `tickets`: the table's
 *   own marker and counter are kept). Returns the next cursor.
 */
export const ROUTING_SCRIPT = `local h, step = KEYS[1], ARGV[1]
local function read(by, key, built)
  local id = key
  if by == 'number' then
    id = redis.call('HGET', h, 'n:' .. key)
    if not id then return {redis.call('HEXISTS', h, built)} end
  end
  local text = redis.call('HGET', h, 'e:' .. id)
  if not text then return {redis.call('HEXISTS', h, built)} end
  local e = cjson.decode(text)
  if e.d then return {redis.call('HEXISTS', h, built), text} end
  local out = {1, text}
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
end
local function unindex(o, e)
  if o.d or o.x or not o.p or o.p == '' then return end
  if e and not e.d and not e.x and e.p == o.p then return end
  if redis.call('HGET', h, 'n:' .. o.p) == o.i then redis.call('HDEL', h, 'n:' .. o.p) end
end
local function write(entries, records)
  for _, text in ipairs(cjson.decode(entries)) do
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
  for field, text in pairs(cjson.decode(records)) do
    local old = redis.call('HGET', h, field)
    if not old or cjson.decode(old).t <= cjson.decode(text).t then redis.call('HSET', h, field, text) end
  end
  return 1
end
local function sweep(cursor, before, count, built, tickets)
  local res = redis.call('HSCAN', h, cursor, 'COUNT', count)
  local kv = res[2]
  for i = 1, #kv, 2 do
    local f, v = kv[i], kv[i + 1]
    local p = string.sub(f, 1, 2)
    if f == built or f == tickets then
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
end
if step == 'read' then return read(ARGV[2], ARGV[3], ARGV[4]) end
if step == 'write' then return write(ARGV[2], ARGV[3]) end
if step == 'sweep' then return sweep(ARGV[2], tonumber(ARGV[3]), ARGV[4], ARGV[5], ARGV[6]) end
return redis.error_reply('unknown routing step: ' .. tostring(step))`;

/** What a `read` step answers: the marker's presence (0 or 1), the entry, then field, value pairs. */
export type RoutingReadReply = (string | number | null)[];

/** A connection that runs the script as `routingStep(key, step, ...args)`. */
export type RoutingRedis = RedisConnection & {
  routingStep(
    key: string,
    step: 'read',
    by: string,
    id: string,
    built: string,
  ): Promise<RoutingReadReply>;
  routingStep(key: string, step: 'write', entries: string, records: string): Promise<number>;
  routingStep(key: string, step: 'sweep', ...args: (string | number)[]): Promise<string>;
};

/**
 * Defines the script on `redis` (sent as EVALSHA; ioredis loads it again after a Redis restart or
 * on a new connection). The lookups' connection is shared with other readers: defining it twice
 * defines the same script.
 */
export function withRoutingScript(redis: RedisConnection): RoutingRedis {
  redis.defineCommand('routingStep', { numberOfKeys: 1, lua: ROUTING_SCRIPT });
  return redis as RoutingRedis;
}
