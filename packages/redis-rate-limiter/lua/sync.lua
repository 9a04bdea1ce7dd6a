-- Raises the bucket's borrowed amount to at least what the venue reports, never lowering it (RL-R2); a
-- new definition converts the bucket and keeps its hold (RL-L5, RL-R3). Preceded by state.lua.
--
-- KEYS: the bucket. ARGV: now ('' = server TIME), TTL slack ms, capacity, refillPerSec, minBorrowed.
-- Reply: 1.

local now = read_clock(ARGV[1])
local d = define(ARGV[3], ARGV[4])
local x, hold = effective(redis.call('GET', KEYS[1]), d, now)
store(KEYS[1], d, sync_borrowed(x, d, tonumber(ARGV[5]), now), hold, now, tonumber(ARGV[2]), '')
return 1
