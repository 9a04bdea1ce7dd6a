-- Reads one bucket and the clock, for borrowed and snapshot (RL-I1, RL-I3); writes nothing. Preceded by
-- state.lua.
--
-- KEYS: the bucket. ARGV: now ('' = server TIME). Reply: {stored value or '', now in script time}.

local now = read_clock(ARGV[1])
return { redis.call('GET', KEYS[1]) or '', fmt(now) }
