-- Raises the bucket's borrowed amount to at least what the venue reports, never lowering it (RL-R2); a
-- new definition converts the bucket and keeps its hold (RL-L5, RL-R3). On a window limit the venue's
-- count holds the bucket back only by what others spent, and replaces the reports the venue counted before
-- this one's request was sent (RL-V5, the kit's window.ts). Arguments and reply: src/protocol.ts (syncArgs).
--
-- keys: the bucket. args: now ('' = server TIME), TTL slack ms, definition as text, minBorrowed, the
-- reporting request's send time in script time ('' = unknown), what the caller knows the venue counted of its
-- own in the window ('' = 0), the earliest and the latest end of the reported fixed window in script time
-- ('' = not known).
-- Reply: 1.

function OPERATIONS.sync(keys, args)
  local NOW, SLACK, DEFINITION, USED, SENT_AT, COUNTED_OWN, END_EARLIEST, END_LATEST = 1, 2, 3, 4, 5, 6, 7, 8
  local now = read_clock(args[NOW])
  local d = define(args[DEFINITION])
  local raw = redis.call('GET', keys[1])
  if d.window then
    local sent_at = nil
    if args[SENT_AT] ~= '' then sent_at = tonumber(args[SENT_AT]) end
    local counted_own = 0
    if args[COUNTED_OWN] ~= '' then counted_own = tonumber(args[COUNTED_OWN]) end
    local end_min, end_max = nil, nil
    if args[END_EARLIEST] ~= nil and args[END_EARLIEST] ~= '' then end_min, end_max = tonumber(args[END_EARLIEST]), tonumber(args[END_LATEST]) end
    local e, hold = effective_window(raw, d, now)
    local ledger_after = window_sync(e, d.window, tonumber(args[USED]), now, sent_at, counted_own, end_min, end_max)
    store(keys[1], d, 0, hold, now, tonumber(args[SLACK]), '', ledger_after, nil)
    return 1
  end
  local x, hold, cs = effective(raw, d, now)
  local y = sync_borrowed(x, d, tonumber(args[USED]), now)
  store(keys[1], d, y, hold, now, tonumber(args[SLACK]), '', nil, class_raise(settle_classes(cs, x, now), d, x, y, false))
  return 1
end
