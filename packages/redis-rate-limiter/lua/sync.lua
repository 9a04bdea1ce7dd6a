-- Raises the bucket's borrowed amount to at least what the venue reports, never lowering it (RL-R2); a
-- new definition converts the bucket and keeps its hold (RL-L5, RL-R3). On a window limit the venue's
-- count holds the bucket back only by what others spent, and replaces the reports answered before
-- this one was sent (RL-V5, the kit's window.ts). Arguments and reply: src/protocol.ts (syncArgs).
--
-- keys: the bucket. args: now ('' = server TIME), TTL slack ms, definition as text, minBorrowed, the
-- reporting request's send time in script time ('' = unknown), the earliest its venue window can have
-- began at the latest, in script time ('' = a rolling window), the caller's own sends at or before then the
-- venue certainly counted ('' = 0), the reporting request's own admitted cost now answered ('' = none),
-- the earliest and the latest end of the reported fixed window in script time ('' = not known).
-- Reply: 1.

function OPERATIONS.sync(keys, args)
  local NOW, SLACK, DEFINITION, USED, SENT_AT, SINCE, COUNTED_OWN, ANSWERED, END_EARLIEST, END_LATEST = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
  local now = read_clock(args[NOW])
  local d = define(args[DEFINITION])
  local raw = redis.call('GET', keys[1])
  if d.window then
    local sent_at, since = nil, nil
    if args[SENT_AT] ~= '' then sent_at = tonumber(args[SENT_AT]) end
    if args[SINCE] ~= '' then since = tonumber(args[SINCE]) end
    local counted_own = 0
    if args[COUNTED_OWN] ~= '' then counted_own = tonumber(args[COUNTED_OWN]) end
    local answered_cost = nil
    if args[ANSWERED] ~= nil and args[ANSWERED] ~= '' then answered_cost = tonumber(args[ANSWERED]) end
    local end_at = nil
    if args[END_EARLIEST] ~= nil and args[END_EARLIEST] ~= '' then end_at = { tonumber(args[END_EARLIEST]), tonumber(args[END_LATEST]) } end
    local e, hold, answers = effective_window(raw, d, now)
    local entries, kept = window_sync(e, answers, d.window, tonumber(args[USED]), now, sent_at, since, counted_own, answered_cost, end_at)
    store(keys[1], d, 0, hold, now, tonumber(args[SLACK]), '', entries, nil, kept)
    return 1
  end
  local x, hold, cs = effective(raw, d, now)
  local y = sync_borrowed(x, d, tonumber(args[USED]), now)
  store(keys[1], d, y, hold, now, tonumber(args[SLACK]), '', nil, class_raise(settle_classes(cs, x, now), d, x, y, false))
  return 1
end
