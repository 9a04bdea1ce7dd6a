import { LUA_STATE, SCRIPT_EPOCH_MS } from './lua-state.js';

/** What an admit script is built for: one limiter's TTL slack, and whose clock it reads. */
export interface AdmitScriptOptions {
  /** Added to each key's expiry beyond the time its bucket is full again (ms). */
  readonly ttlSlackMs: number;
  /** `true`: the caller sends `now` (an injected clock); `false`: the script reads the server's TIME. */
  readonly injectedClock: boolean;
}

/**
 * One admission, booking or peek over one or more buckets of one hash slot, in one round trip
 * (docs/model.md; RL-A1..RL-A5, RL-M1, RL-M4, RL-M5, RL-W1, RL-W3, RL-L4, RL-L5).
 *
 * The hot path of the limiter, so what is fixed for a limiter is written into the script (its TTL
 * slack, whose clock) rather than sent with every call: one script per option set, each cached by
 * its SHA-1 like any other.
 *
 * KEYS: the buckets (distinct; repeated keys are merged by the caller, RL-M2).
 * ARGV: mode, then with an injected clock its now, then per key: capacity, refillPerSec, cost (> 0).
 * Mode: `0` probe, `2` peek, or a booking within a budget: `;<budget ms>;<token>`. A booking for
 * later (send time after now) appends `;<token>` to every value it writes, so that its cancellation
 * can tell that nothing wrote since (RL-W5); no other write stores a token.
 *
 * Replies (floats as strings, since Redis truncates Lua numbers; `clockA, clockB` are TIME's seconds and
 * microseconds, or the injected now and ''):
 * - admitted now (the common case, one small reply): TIME in microseconds as an integer, or the
 *   injected now as a string;
 * - `{0, sendAt, clockA, clockB, written1, previous1, ...}` booked for later (peek: without the pairs);
 * - `{1, wait, clockA, clockB}` not admitted; nothing written (RL-A3, RL-W3);
 * - `{2, index}` the cost of bucket `index` (1-based) can never be paid (RL-L4); nothing written.
 *
 * The hot path (a live bucket under the same definition) finds the definition at the start of the
 * stored string without copying it, reads `tat` with one substring, and writes the new string with
 * one number formatting; conversions (RL-L5), pending holds or debts and values that carry a
 * booking's token go through the shared state functions, which are only built when needed.
 */
export function admitScript(options: AdmitScriptOptions): string {
  const base = options.injectedClock ? 2 : 1;
  const clock = options.injectedClock
    ? `local now = tonumber(ARGV[2])
local clockA = ARGV[2]
local clockB = ''
local admittedNow = ARGV[2]`
    : `local t = redis.call('TIME')
local now = (tonumber(t[1]) - ${SCRIPT_EPOCH_MS / 1000}) * 1000 + tonumber(t[2]) / 1000
local clockA = t[1]
local clockB = t[2]
-- TIME in microseconds: an exact integer (< 2^53), which Redis sends as it is
local admittedNow = tonumber(t[1]) * 1000000 + tonumber(t[2])`;
  return `
local function loadState()
${LUA_STATE}
  return view
end

-- the clock goes back to the caller as it came (TIME's two strings, or the injected value): the
-- caller recomputes the same double, and the common reply needs no number formatting
${clock}
local slack = ${String(options.ttlSlackMs)}
local mode = ARGV[1]
local book = string.byte(mode) == 59
local n = #KEYS
-- per bucket, 7 slots in one flat table: x, hold, def, cap, rate, cost, raw
local st = {}
local view = nil
local s = now
-- one read for every bucket (they share a slot)
local stored
if n == 1 then stored = { redis.call('GET', KEYS[1]) } else stored = redis.call('MGET', unpack(KEYS)) end
for i = 1, n do
  local b = ${base} + (i - 1) * 3
  local capS = ARGV[b + 1]
  local rateS = ARGV[b + 2]
  local cap = tonumber(capS)
  local rate = tonumber(rateS)
  local cost = tonumber(ARGV[b + 3])
  -- the stored definition with the comma before x
  local def = capS .. ',' .. rateS .. ','
  local raw = stored[i]
  local x, hold
  if not raw then
    hold = 0
    if rate > 0 then x = now else x = 0 end
  else
    if string.find(raw, def, 1, true) == 1 then
      -- the same definition: x[,hold] follows
      local p = #def + 1
      local comma = string.find(raw, ',', p, true)
      if comma then
        x = tonumber(string.sub(raw, p, comma - 1))
        hold = tonumber(string.sub(raw, comma + 1))
      else
        x = tonumber(string.sub(raw, p))
        hold = 0
      end
    end
    -- another definition, a pending debt or hold, or a booking's token (';...'): the full parse
    if x == nil or hold == nil then
      if view == nil then view = loadState() end
      local v = view(raw, capS, rateS, now)
      x = v.x
      hold = v.hold
    end
  end
  local o = (i - 1) * 7
  st[o + 1] = x
  st[o + 2] = hold
  st[o + 3] = def
  st[o + 4] = cap
  st[o + 5] = rate
  st[o + 6] = cost
  st[o + 7] = raw
  if rate > 0 then
    local T = 1000 / rate
    local tau = cap * T
    local start = x
    if start < now then start = now end
    local si = start + cost * T - tau
    -- comparisons allow eps = 1e-9 * max(1, tau) ms (docs/model.md)
    if si - now > 1e-9 * math.max(1, tau) and si > s then s = si end
  elseif x + cost > cap + 1e-9 * math.max(1, cap) then
    return {2, i}
  end
end
local w = s - now
local token = ''
if w > 0 then
  if not book then return {1, string.format('%.17g', w), clockA, clockB} end
  local semi = string.find(mode, ';', 2, true)
  if w > tonumber(string.sub(mode, 2, semi - 1)) then return {1, string.format('%.17g', w), clockA, clockB} end
  token = string.sub(mode, semi)
end
local sS = ''
if s ~= now then sS = string.format('%.17g', s) end
if mode == '2' then
  if s == now then return admittedNow end
  return {0, sS, clockA, clockB}
end
-- admitted now: only the clock goes back (a booking for later also returns what it wrote)
local out = nil
if token ~= '' then out = {0, sS, clockA, clockB} end
for i = 1, n do
  local o = (i - 1) * 7
  local x = st[o + 1]
  local rate = st[o + 5]
  local cost = st[o + 6]
  local inc
  if rate > 0 then
    local cap = st[o + 4]
    if cost > cap then cost = cap end
    inc = cost * (1000 / rate)
    if x < s then x = s end
  else
    inc = cost
  end
  -- the charge is never smaller than its cost: round the float sum up where it fell short
  local base = x
  x = base + inc
  if x - base < inc then x = x + math.abs(x) * 2.220446049250313e-16 end
  local hold = st[o + 2]
  local value = st[o + 3] .. string.format('%.17g', x)
  if hold > now then value = value .. ',' .. string.format('%.17g', hold) end
  if token ~= '' then value = value .. token end
  if rate > 0 then
    local ttl = x - now
    if hold - now > ttl then ttl = hold - now end
    redis.call('SET', KEYS[i], value, 'PX', math.ceil(ttl + slack))
  else
    redis.call('SET', KEYS[i], value)
  end
  if out ~= nil then
    out[#out + 1] = value
    out[#out + 1] = st[o + 7] or ''
  end
end
if out == nil then return admittedNow end
return out
`;
}
