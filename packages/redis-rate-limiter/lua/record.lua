-- Debits cost that went out without admission (RL-R1), exactly once: the record's id is marked (SET NX
-- with a TTL) and a second delivery of the same record (a retry after a timeout, when the first one was
-- only slow) changes nothing. Without a definition, a live bucket keeps its own and an unknown one
-- keeps the debt until its first definition. Preceded by state.lua.
--
-- KEYS: the bucket, the record's marker (same hash slot). ARGV: now ('' = server TIME), TTL slack ms,
-- pending debt TTL ms, pending hold TTL ms, marker TTL ms, cost, definition as text ('' = the stored
-- definition), and for one admitted send that went out late (RL-V7, '' = none): where the store holds it,
-- the earliest and the latest time it went out (script time, validated in order).
-- Reply: 1 applied, 0 already applied.

if not redis.call('SET', KEYS[2], '1', 'NX', 'PX', ARGV[5]) then return 0 end
local now = read_clock(ARGV[1])
local slack = tonumber(ARGV[2])
local cost = tonumber(ARGV[6])
local raw = redis.call('GET', KEYS[1])
local d
if ARGV[7] ~= '' then
  d = define(ARGV[7])
else
  local st = live(parse(raw), now)
  if st == nil or st.pending then
    local debt, hold = 0, NO_HOLD
    if st ~= nil then debt, hold = st.debt, st.hold end
    store_pending(KEYS[1], math.min(debt + cost, MAX_AMOUNT), hold, now, tonumber(ARGV[3]), tonumber(ARGV[4]))
    return 1
  end
  d = define(st.text)
end
if d.window then
  local e, hold, answers = effective_window(raw, d, now)
  local late = nil
  if ARGV[8] ~= nil and ARGV[8] ~= '' then late = { tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10]) } end
  store(KEYS[1], d, 0, hold, now, slack, '', window_record(e, d.window, cost, now, late), nil, answers)
  return 1
end
local x, hold, cs = effective(raw, d, now)
local y = record_cost(x, d, cost, now)
store(KEYS[1], d, y, hold, now, slack, '', nil, class_raise(settle_classes(cs, x, now), d, x, y, false))
return 1
