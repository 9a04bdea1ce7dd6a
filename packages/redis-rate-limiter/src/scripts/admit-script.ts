import { LUA_STATE, SCRIPT_EPOCH_MS } from './lua-state.js';

/**
 * One admission, booking or peek over one or more buckets of one hash slot, in one round trip
 * (docs/model.md; RL-A1..RL-A5, RL-M1, RL-M4, RL-M5, RL-W1, RL-W3, RL-L4, RL-L5).
 *
 * KEYS: the buckets (distinct; repeated keys are merged by the caller, RL-M2).
 * ARGV: now ('' = server TIME), TTL slack ms, pending TTL ms, mode (0 probe, 2 peek, or book within
 * budget: `;` and the booking's token), budget ms, then per key: capacity, refillPerSec, cost (> 0).
 * A booking for later (send time after now) appends its mode (`;token`) to every value it writes, so
 * that its cancellation can tell that nothing wrote since (RL-W5); no other write stores a token.
 *
 * Replies (floats as strings, since Redis truncates Lua numbers; `clockA, clockB` are TIME's seconds and
 * microseconds, or the injected now and ''):
 * - `{0, sendAt or '' (= now), clockA, clockB, written1, previous1, ...}` admitted (the written/previous
 *   pairs only when booking);
 * - `{1, wait, clockA, clockB}` not admitted; nothing written (RL-A3, RL-W3);
 * - `{2, index}` the cost of bucket `index` (1-based) can never be paid (RL-L4); nothing written.
 *
 * The hot path (a live bucket under the same definition) parses and writes the stored string
 * directly; conversions (RL-L5) and pending holds or debts go through the shared state functions,
 * which are only built when needed.
 */
export const ADMIT_SCRIPT = `
local function loadState()
${LUA_STATE}
  return view
end

-- the clock goes back to the caller as it came (TIME's two strings, or the injected value): the
-- caller recomputes the same double, and the common reply needs no number formatting
local now, clockA, clockB
if ARGV[1] ~= '' then
  now = tonumber(ARGV[1])
  clockA = ARGV[1]
  clockB = ''
else
  local t = redis.call('TIME')
  now = (tonumber(t[1]) - ${SCRIPT_EPOCH_MS / 1000}) * 1000 + tonumber(t[2]) / 1000
  clockA = t[1]
  clockB = t[2]
end
local slack = tonumber(ARGV[2])
local mode = ARGV[4]
local book = string.byte(mode) == 59
local n = #KEYS
-- per bucket, 7 slots in one flat table: x, hold, def, cap, rate, cost, raw
local st = {}
local view = nil
local s = now
-- one read for every bucket (they share a slot)
local stored = redis.call('MGET', unpack(KEYS))
for i = 1, n do
  local b = 5 + (i - 1) * 3
  local capS = ARGV[b + 1]
  local rateS = ARGV[b + 2]
  local cap = tonumber(capS)
  local rate = tonumber(rateS)
  local cost = tonumber(ARGV[b + 3])
  local def = capS .. ',' .. rateS
  local raw = stored[i]
  local x, hold
  if not raw then
    hold = 0
    if rate > 0 then x = now else x = 0 end
  elseif string.sub(raw, 1, #def) == def and string.byte(raw, #def + 1) == 44 then
    -- the same definition: x[,hold] follows
    local rest = string.sub(raw, #def + 2)
    local comma = string.find(rest, ',', 1, true)
    if comma then
      x = tonumber(string.sub(rest, 1, comma - 1))
      hold = tonumber(string.sub(rest, comma + 1))
    else
      x = tonumber(rest)
      hold = 0
    end
    -- a booking's token (';...') after the numbers: the full parse below
    if x == nil or hold == nil then
      if view == nil then view = loadState() end
      local v = view(raw, capS, rateS, now)
      x = v.x
      hold = v.hold
    end
  else
    if view == nil then view = loadState() end
    local v = view(raw, capS, rateS, now)
    x = v.x
    hold = v.hold
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
if w > 0 and (not book or w > tonumber(ARGV[5])) then return {1, string.format('%.17g', w), clockA, clockB} end
local sS = ''
if s ~= now then sS = string.format('%.17g', s) end
if mode == '2' then return {0, sS, clockA, clockB} end
local out = {0, sS, clockA, clockB}
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
  local value = st[o + 3] .. ',' .. string.format('%.17g', x)
  if hold > now then value = value .. ',' .. string.format('%.17g', hold) end
  if book and s ~= now then value = value .. mode end
  if rate > 0 then
    local ttl = x - now
    if hold - now > ttl then ttl = hold - now end
    redis.call('SET', KEYS[i], value, 'PX', math.ceil(ttl + slack))
  else
    redis.call('SET', KEYS[i], value)
  end
  if book then
    out[#out + 1] = value
    out[#out + 1] = st[o + 7] or ''
  end
end
return out
`;
