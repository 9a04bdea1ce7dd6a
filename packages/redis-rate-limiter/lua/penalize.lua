-- Holds the bucket closed until its end and empty then (RL-R3): x = max(x, until + tau); a hold never
-- shortens an existing one and is clamped to the horizon. On a bucket not yet defined the hold is kept
-- (at least the pending hold TTL after it ends) and folded in at its first definition. Preceded by
-- state.lua.
--
-- KEYS: the bucket. ARGV: now ('' = server TIME), TTL slack ms, pending debt TTL ms, pending hold TTL ms,
-- until (script time) or '', forMs or ''.
-- Reply: the end of the hold in script time.

local now = read_clock(ARGV[1])
local until_ms
if ARGV[5] ~= '' then until_ms = tonumber(ARGV[5]) else until_ms = now + tonumber(ARGV[6]) end
until_ms = clamp_hold(until_ms, now)
local st = live(parse(redis.call('GET', KEYS[1])), now)
if st == nil or st.pending then
  local debt, hold = 0, NO_HOLD
  if st ~= nil then debt, hold = st.debt, st.hold end
  store_pending(KEYS[1], debt, math.max(hold, until_ms), now, tonumber(ARGV[3]), tonumber(ARGV[4]))
  return fmt(until_ms)
end
local d = define(st.text)
if d.window then
  store(KEYS[1], d, 0, math.max(st.hold, until_ms), now, tonumber(ARGV[2]), '', window_penalize(st.entries, d.window, until_ms, now), nil, st.answers)
else
  local y = penalize_until(st.x, d, until_ms, now)
  local cs = nil
  if not d.quota then cs = class_raise(settle_classes(st.classes, st.x, now), d, st.x, y, true) end
  store(KEYS[1], d, y, math.max(st.hold, until_ms), now, tonumber(ARGV[2]), '', nil, cs)
end
return fmt(until_ms)
