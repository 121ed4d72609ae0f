import { HOUR_MS } from './calendar.js';
import { LuaScript } from './lua-script.js';

/*
 * The Redis side of metering. Each script touches only keys of one API key (or one client
 * address), which share a hash tag, so it runs on Redis Cluster too. Times are milliseconds
 * since the epoch from the calling process's clock (tests choose them), so API hosts must keep
 * their clocks in step (NTP): the burst bucket's 50 ms step is the finest thing they decide.
 *
 * Every script answers {outcome, hourly count, window start (0: no open window), credits used
 * this month, milliseconds to wait (0 unless refused)}.
 */

const HOUR = `local HOUR = ${HOUR_MS}\n`;

/**
 * A bucket of `capacity` that refills at `capacity` per `period_ms` (the generic cell rate
 * algorithm, which keeps one number per key: the theoretical arrival time, TAT). Takes one unit
 * and answers 0, or answers the milliseconds until one is free and takes nothing. The maths is
 * in whole microseconds (below 2^53, so exact in Lua's doubles): `capacity` units at one
 * instant, never one more or less, whatever the capacity.
 */
const TAKE = `
local function take(key, now_ms, capacity, period_ms, mode)
  local now = now_ms * 1000
  local interval = math.ceil(period_ms * 1000 / capacity)
  local tolerance = interval * (capacity - 1)
  local tat = tonumber(redis.call('GET', key)) or now
  if tat < now then tat = now end
  if tat - now > tolerance then return math.ceil((tat - now - tolerance) / 1000) end
  if mode == 'take' then
    local next_tat = tat + interval
    redis.call('SET', key, string.format('%d', next_tat), 'PX', math.ceil((next_tat - now) / 1000))
  end
  return 0
end
`;

/** The key's open hourly window, or start 0 and count 0 when none is open at `now`. */
const OPEN_WINDOW = `
local function open_window(key, now)
  local window = redis.call('HMGET', key, 'start', 'count')
  local start = tonumber(window[1])
  if start == nil or now >= start + HOUR then return 0, 0, window[1] end
  return start, tonumber(window[2]) or 0, window[1]
end
`;

/**
 * Checks and counts one request.
 * KEYS: hourly window (hash start, count), this month's credits used, burst bucket, and in
 * `charge` mode the charge's record.
 * ARGV: now, mode, hourly limit, monthly credits, when this month's counter may go, burst size,
 * how long a charge's record is kept (ms).
 * Modes: `charge` refuses when credits (first) or the hourly window are exhausted, else counts
 * the request in both, opening a window at the first, and records the charge (the start of the
 * window it was counted in) under its id, so that REFUND_SCRIPT gives it back once; it takes no
 * burst unit, because the burst limit bounds uncharged answers only (an answer that turns out
 * uncharged takes its unit when it is given back); `uncharged` only takes a burst unit;
 * `revalidate` refuses as `charge` does, else only takes a burst unit (what a charge given back
 * with its burst unit leaves, in one step); `read` changes nothing.
 */
export const METER_SCRIPT = new LuaScript(
  HOUR +
    TAKE +
    OPEN_WINDOW +
    `
local now = tonumber(ARGV[1])
local mode = ARGV[2]
local hourly_limit = tonumber(ARGV[3])
local credit_limit = tonumber(ARGV[4])
local credits_expire_at = tonumber(ARGV[5])
local burst_size = tonumber(ARGV[6])

local start, count, stored_start = open_window(KEYS[1], now)
local used = tonumber(redis.call('GET', KEYS[2])) or 0

if mode == 'uncharged' then
  local wait = take(KEYS[3], now, burst_size, 1000, 'take')
  if wait > 0 then return {'burst', count, start, used, wait} end
elseif mode == 'charge' or mode == 'revalidate' then
  if used >= credit_limit then return {'credits', count, start, used, 0} end
  if count >= hourly_limit then return {'hourly', count, start, used, start + HOUR - now} end
  if mode == 'revalidate' then
    local wait = take(KEYS[3], now, burst_size, 1000, 'take')
    if wait > 0 then return {'burst', count, start, used, wait} end
    return {'ok', count, start, used, 0}
  end
  if start == 0 then
    start, stored_start = now, ARGV[1]
    redis.call('HSET', KEYS[1], 'start', ARGV[1], 'count', 0)
    redis.call('PEXPIREAT', KEYS[1], start + HOUR)
  end
  count = redis.call('HINCRBY', KEYS[1], 'count', 1)
  used = redis.call('INCR', KEYS[2])
  redis.call('PEXPIREAT', KEYS[2], credits_expire_at)
  redis.call('SET', KEYS[4], stored_start, 'PX', ARGV[7])
end
return {'ok', count, start, used, 0}
`,
);

/**
 * Gives back one charged request, once: only by removing its record, so a charge already given
 * back, never counted, or recorded longer ago than its record is kept gets nothing back. It goes
 * back to the hourly window it was counted in (when that window is still the key's; a window
 * left with no counted request is closed) and to the month it was charged to; never below zero.
 * With a burst size, the answer is an uncharged one the burst limit bounds: it takes a burst
 * unit, and answers `burst` (taking nothing) when none is free.
 * KEYS: hourly window, the charged month's credits, the current month's credits, burst bucket,
 * the charge's record.
 * ARGV: now, burst size (0: no burst unit to take).
 */
export const REFUND_SCRIPT = new LuaScript(
  HOUR +
    TAKE +
    OPEN_WINDOW +
    `
local now = tonumber(ARGV[1])
local burst_size = tonumber(ARGV[2])
local start, count, stored_start = open_window(KEYS[1], now)
local charged_start = redis.call('GET', KEYS[5])
if charged_start then
  redis.call('DEL', KEYS[5])
  if stored_start == charged_start then
    local charged_window_count = tonumber(redis.call('HGET', KEYS[1], 'count')) or 0
    if charged_window_count > 1 then
      charged_window_count = redis.call('HINCRBY', KEYS[1], 'count', -1)
      if start ~= 0 then count = charged_window_count end
    elseif charged_window_count == 1 then
      -- Its only counted request is given back: the window was never opened by a counted one.
      redis.call('DEL', KEYS[1])
      start, count = 0, 0
    end
  end
  local charged_month_used = tonumber(redis.call('GET', KEYS[2])) or 0
  if charged_month_used > 0 then redis.call('DECR', KEYS[2]) end
end
local used = tonumber(redis.call('GET', KEYS[3])) or 0
if burst_size > 0 then
  local wait = take(KEYS[4], now, burst_size, 1000, 'take')
  if wait > 0 then return {'burst', count, start, used, wait} end
end
return {'ok', count, start, used, 0}
`,
);

/**
 * Failed authentications of a client address.
 * KEYS: the address's bucket. ARGV: now, failures allowed per minute, `take` (count one) or
 * `peek` (only ask whether one more would be allowed).
 * Answers 0, or the milliseconds until the address may fail again.
 */
export const AUTH_FAILURE_SCRIPT = new LuaScript(
  TAKE +
    `
return take(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), 60000, ARGV[3])
`,
);
