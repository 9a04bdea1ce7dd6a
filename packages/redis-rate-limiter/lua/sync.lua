-- Raises the bucket's borrowed amount to at least what the venue reports, never lowering it (RL-R2); a
-- new definition converts the bucket and keeps its hold (RL-L5, RL-R3). On a window limit the venue's
-- count holds the bucket back only by what others spent, and replaces the reports answered before
-- this one was sent (RL-V5, the kit's window.ts). Preceded by state.lua.
--
-- KEYS: the bucket. ARGV: now ('' = server TIME), TTL slack ms, definition as text, minBorrowed, the
-- reporting request's send time in script time ('' = unknown), the earliest its venue window can have
-- began at the latest, in script time ('' = a rolling window), the caller's own sends at or before then the
-- venue certainly counted ('' = 0), the reporting request's own admitted cost now answered ('' = none),
-- the earliest and the latest end of the reported fixed window in script time ('' = not known).
-- Reply: 1.

local now = read_clock(ARGV[1])
local d = define(ARGV[3])
local raw = redis.call('GET', KEYS[1])
if d.window then
  local sent_at, since = nil, nil
  if ARGV[5] ~= '' then sent_at = tonumber(ARGV[5]) end
  if ARGV[6] ~= '' then since = tonumber(ARGV[6]) end
  local counted_own = 0
  if ARGV[7] ~= '' then counted_own = tonumber(ARGV[7]) end
  local answered_cost = nil
  if ARGV[8] ~= nil and ARGV[8] ~= '' then answered_cost = tonumber(ARGV[8]) end
  local end_at = nil
  if ARGV[9] ~= nil and ARGV[9] ~= '' then end_at = { tonumber(ARGV[9]), tonumber(ARGV[10]) } end
  local e, hold, answers = effective_window(raw, d, now)
  local entries, kept = window_sync(e, answers, d.window, tonumber(ARGV[4]), now, sent_at, since, counted_own, answered_cost, end_at)
  store(KEYS[1], d, 0, hold, now, tonumber(ARGV[2]), '', entries, nil, kept)
  return 1
end
local x, hold, cs = effective(raw, d, now)
local y = sync_borrowed(x, d, tonumber(ARGV[4]), now)
store(KEYS[1], d, y, hold, now, tonumber(ARGV[2]), '', nil, class_raise(settle_classes(cs, x, now), d, x, y, false))
return 1
