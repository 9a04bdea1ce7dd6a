import { LUA_STATE } from './lua-state.js';

/**
 * Debits cost that went out without admission (RL-R1): `tat = max(tat, now) + c·T` (debt allowed), or
 * the used amount of a fixed quota grows. Without a definition, a live bucket keeps its own and an
 * unknown one keeps the debt (for `pendingTtl` ms) until its first definition.
 *
 * KEYS: the bucket. ARGV: now ('' = server TIME), TTL slack ms, pending TTL ms, cost, capacity ('' = use
 * the stored definition), refillPerSec. Reply: 1.
 */
export const RECORD_SCRIPT = `${LUA_STATE}
local now = clock(ARGV[1])
local cost = tonumber(ARGV[4])
local raw = redis.call('GET', KEYS[1])
local st
if ARGV[5] ~= '' then
  st = view(raw, ARGV[5], ARGV[6], now)
else
  st = parse(raw)
  if st == nil then st = { pending = true, debt = 0, hold = 0 } end
end
if st.pending then
  st.debt = st.debt + cost
elseif st.rate > 0 then
  st.x = addUp(math.max(st.x, now), cost * 1000 / st.rate)
else
  st.x = addUp(st.x, cost)
end
store(KEYS[1], st, now)
return 1
`;
