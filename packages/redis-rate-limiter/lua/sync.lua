-- Raises a bucket's borrowed amount to at least what the venue reports, never lowering it (RL-R2); a
-- new definition converts the bucket and keeps its hold (RL-L5, RL-R3). On a window limit the venue's
-- count holds the bucket back only by what others spent, and replaces the reports the venue counted before
-- this one's request was sent (RL-V5, the kit's window.ts). One call syncs the buckets one answer reported,
-- in order, exactly as one call each in that order would. Arguments and reply: src/protocol.ts
-- (syncHeadArgs, syncBucketArgs).
--
-- keys: the buckets (a key may come twice: its syncs apply in order). args: now ('' = server TIME), TTL slack
-- ms, then per bucket SYNC_FIELDS fields: definition as text, minBorrowed, the reporting request's send time in
-- script time ('' = unknown), what the caller knows the venue counted of its own in the window ('' = 0), the
-- earliest and the latest end of the reported fixed window in script time ('' = not known), and the part of the
-- caller's count sent outside the send times the ledger counts itself ('' = 0).
-- Reply: the number of buckets synced.

local SYNC_FIELDS = 7

local function sync_one(key, args, at, now, slack)
  local DEFINITION, USED, SENT_AT, COUNTED_OWN, END_EARLIEST, END_LATEST, OUTSIDE_OWN = at, at + 1, at + 2, at + 3, at + 4, at + 5, at + 6
  local d = define(args[DEFINITION])
  local raw = redis.call('GET', key)
  if d.window then
    local sent_at = nil
    if args[SENT_AT] ~= '' then sent_at = tonumber(args[SENT_AT]) end
    local counted_own = 0
    if args[COUNTED_OWN] ~= '' then counted_own = tonumber(args[COUNTED_OWN]) end
    local outside_own = 0
    if args[OUTSIDE_OWN] ~= '' then outside_own = tonumber(args[OUTSIDE_OWN]) end
    local end_min, end_max = nil, nil
    if args[END_EARLIEST] ~= '' then end_min, end_max = tonumber(args[END_EARLIEST]), tonumber(args[END_LATEST]) end
    local e, hold = effective_window(raw, d, now)
    local ledger_after = window_sync(e, d.window, tonumber(args[USED]), now, sent_at, counted_own, end_min, end_max, outside_own)
    store(key, d, 0, hold, now, slack, '', ledger_after, nil)
    return
  end
  -- (x and the class state relative to now, gcra.lua)
  local x, hold, cs = effective(raw, d, now)
  local y = sync_borrowed(x, d, tonumber(args[USED]), 0)
  store(key, d, y, hold, now, slack, '', nil, class_raise(settle_classes(cs, x, 0), d, x, y, false))
end

function OPERATIONS.sync(keys, args)
  local NOW, SLACK, BUCKETS = 1, 2, 3
  local now = read_clock(args[NOW])
  local slack = tonumber(args[SLACK])
  for i = 1, #keys do
    sync_one(keys[i], args, BUCKETS + (i - 1) * SYNC_FIELDS, now, slack)
  end
  return #keys
end
