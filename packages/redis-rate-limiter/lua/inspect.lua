-- Reads one bucket and the clock, for borrowed and snapshot (RL-I1, RL-I3); writes nothing. Arguments and
-- reply: src/protocol.ts (inspectArgs).
--
-- keys: the bucket. args: now ('' = server TIME). Reply: {stored value or '', now in script time}.

function OPERATIONS.inspect(keys, args)
  local NOW = 1
  local now = read_clock(args[NOW])
  return { redis.call('GET', keys[1]) or '', fmt(now) }
end
