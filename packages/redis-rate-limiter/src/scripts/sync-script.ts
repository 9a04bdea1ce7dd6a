import { LUA_STATE } from './lua-state.js';

/**
 * Raises the bucket's borrowed amount to at least what the venue reports, never lowering it (RL-R2):
 * `tat = max(tat, now + minBorrowed·T)`; a fixed quota's used amount becomes at least `minBorrowed`.
 *
 * KEYS: the bucket. ARGV: now ('' = server TIME), TTL slack ms, pending TTL ms, capacity, refillPerSec, minBorrowed.
 * Reply: 1.
 */
export const SYNC_SCRIPT = `${LUA_STATE}
local now = clock(ARGV[1])
local minBorrowed = tonumber(ARGV[6])
local st = view(redis.call('GET', KEYS[1]), ARGV[4], ARGV[5], now)
if st.rate > 0 then
  st.x = math.max(st.x, addUp(now, minBorrowed * 1000 / st.rate))
else
  st.x = math.max(st.x, minBorrowed)
end
store(KEYS[1], st, now)
return 1
`;
