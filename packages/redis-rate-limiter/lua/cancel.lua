-- Returns a booking (RL-W5): each bucket whose stored value is still exactly what the booking wrote
-- (with its token) gets back the value it replaced, without a token; a bucket that anything wrote to
-- after the booking keeps it (the slot is forfeited). Every write other than a booking stores no token and
-- every booking its own, so even a sync or penalty that left the numbers unchanged forfeits (restoring
-- would undo its floor or hold, RL-R2 and RL-R3). Preceded by state.lua.
--
-- KEYS: the booked buckets. ARGV: now ('' = server TIME), TTL slack ms, pending debt TTL ms, pending hold
-- TTL ms, then per bucket: written, previous ('' = absent).
-- Reply: the number of buckets returned.

local now = read_clock(ARGV[1])
local slack = tonumber(ARGV[2])
local returned = 0
for i = 1, #KEYS do
  local written = ARGV[4 + (i - 1) * 2 + 1]
  local previous = ARGV[4 + (i - 1) * 2 + 2]
  local current = redis.call('GET', KEYS[i])
  if current and current == written then
    returned = returned + 1
    local st = parse(previous ~= '' and previous or nil)
    if st == nil then
      redis.call('DEL', KEYS[i])
    elseif st.pending then
      store_pending(KEYS[i], st.debt, st.hold, now, tonumber(ARGV[3]), tonumber(ARGV[4]))
    else
      store(KEYS[i], define(st.text), st.x, st.hold, now, slack, '', st.entries, st.classes, st.answers)
    end
  end
end
return returned
