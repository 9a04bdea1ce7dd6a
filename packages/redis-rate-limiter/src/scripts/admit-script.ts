import { LUA_STATE } from './lua-state.js';

/**
 * One admission, booking or peek over one or more buckets of one hash slot, in one round trip
 * (docs/model.md; RL-A1..RL-A5, RL-M1, RL-M4, RL-M5, RL-W1, RL-W3, RL-L4, RL-L5).
 *
 * KEYS: the buckets (distinct; repeated keys are merged by the caller, RL-M2).
 * ARGV: now ('' = server TIME), TTL slack ms, pending TTL ms, mode (0 probe, 1 book within budget, 2 peek), budget ms,
 * then per key: capacity, refillPerSec, cost (> 0).
 *
 * Replies (floats as strings, since Redis truncates Lua numbers):
 * - `{0, sendAt, now, written1, previous1, ...}` admitted (the written/previous pairs only when booking);
 * - `{1, wait, now}` not admitted; nothing written (RL-A3, RL-W3);
 * - `{2, index}` the cost of bucket `index` (1-based) can never be paid (RL-L4); nothing written.
 */
export const ADMIT_SCRIPT = `${LUA_STATE}
local now = clock(ARGV[1])
local mode = tonumber(ARGV[4])
local budget = tonumber(ARGV[5])
local n = #KEYS
local states, raws, costs = {}, {}, {}
local s = now
for i = 1, n do
  local base = 5 + (i - 1) * 3
  local raw = redis.call('GET', KEYS[i])
  local st = view(raw, ARGV[base + 1], ARGV[base + 2], now)
  local cap = st.cap
  local rate = st.rate
  local cost = tonumber(ARGV[base + 3])
  raws[i] = raw
  states[i] = st
  costs[i] = cost
  if rate > 0 then
    local T = 1000 / rate
    local tau = cap * T
    local si = math.max(now, math.max(st.x, now) + cost * T - tau)
    -- comparisons allow eps = 1e-9 * max(1, tau) ms (docs/model.md)
    if si - now <= 1e-9 * math.max(1, tau) then si = now end
    if si > s then s = si end
  else
    if st.x + cost > cap + 1e-9 * math.max(1, cap) then return {2, i} end
  end
end
local w = s - now
if w > 0 and (mode ~= 1 or w > budget) then return {1, fmt(w), fmt(now)} end
if mode == 2 then return {0, fmt(s), fmt(now)} end
local out = {0, fmt(s), fmt(now)}
for i = 1, n do
  local st = states[i]
  if st.rate > 0 then
    local T = 1000 / st.rate
    st.x = addUp(math.max(st.x, s), math.min(costs[i] * T, st.cap * T))
  else
    st.x = addUp(st.x, costs[i])
  end
  local written = store(KEYS[i], st, now)
  if mode == 1 then
    out[#out + 1] = written
    out[#out + 1] = raws[i] or ''
  end
end
return out
`;
