import { LUA_STATE } from './lua-state.js';

/**
 * Holds the bucket closed until `until` and empty then (RL-R3): `tat = max(tat, until + tau)`; a hold
 * never shortens an existing one. On a bucket not yet defined the hold is kept and folded in at its
 * first definition.
 *
 * KEYS: the bucket. ARGV: now ('' = server TIME), TTL slack ms, pending TTL ms, until (script time, or ''), forMs (or '').
 * Reply: the end of the hold in script time (string).
 */
export const PENALIZE_SCRIPT = `${LUA_STATE}
local now = clock(ARGV[1])
local untilMs
if ARGV[4] ~= '' then untilMs = tonumber(ARGV[4]) else untilMs = now + tonumber(ARGV[5]) end
local st = parse(redis.call('GET', KEYS[1]))
if st == nil then st = { pending = true, debt = 0, hold = 0 } end
st.hold = math.max(st.hold, untilMs)
if not st.pending then
  -- refilling: nothing before the end, empty then; a fixed quota is empty from then on: used up
  if st.rate > 0 then st.x = math.max(st.x, addUp(untilMs, st.cap * 1000 / st.rate)) else st.x = math.max(st.x, st.cap) end
end
store(KEYS[1], st, now)
return fmt(untilMs)
`;
