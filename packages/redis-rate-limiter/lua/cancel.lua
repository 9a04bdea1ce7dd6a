-- Returns a booking (RL-W5): each bucket whose stored value is still exactly what the booking wrote
-- (with its token) gets back the value it replaced, without a token; a bucket that anything wrote to
-- after the booking keeps it (the slot is forfeited). Every write other than a booking stores no token and
-- every booking its own, so even a sync or penalty that left the numbers unchanged forfeits (restoring
-- would undo its floor or hold, RL-R2 and RL-R3). Arguments and reply: src/protocol.ts (cancelArgs).
--
-- keys: the booked buckets. args: now ('' = server TIME), TTL slack ms, pending debt TTL ms, pending hold
-- TTL ms, then per bucket: written, previous ('' = absent).
-- Reply: the number of buckets returned.

function OPERATIONS.cancel(keys, args)
  local NOW, SLACK, DEBT_TTL, HOLD_TTL, PAIRS = 1, 2, 3, 4, 5
  local now = read_clock(args[NOW])
  local slack = tonumber(args[SLACK])
  local returned = 0
  for i = 1, #keys do
    local written = args[PAIRS + (i - 1) * 2]
    local previous = args[PAIRS + (i - 1) * 2 + 1]
    local current = redis.call('GET', keys[i])
    if current and current == written then
      returned = returned + 1
      local st = parse(previous ~= '' and previous or nil)
      if st == nil then
        redis.call('DEL', keys[i])
      elseif st.pending then
        store_pending(keys[i], st.debt, st.hold, now, tonumber(args[DEBT_TTL]), tonumber(args[HOLD_TTL]))
      else
        -- (a token bucket's x and class state as written, relative to the time they were written)
        store(keys[i], define(st.text), st.x, st.hold, now, slack, '', st.entries, st.classes, st.at)
      end
    end
  end
  return returned
end
