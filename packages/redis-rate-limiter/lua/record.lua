-- Debits cost that went out without admission (RL-R1), exactly once: the record's id is marked (SET NX
-- with a TTL) and a second delivery of the same record (a retry after a timeout, when the first one was
-- only slow) changes nothing. Without a definition, a live bucket keeps its own and an unknown one
-- keeps the debt until its first definition. Arguments and reply: src/protocol.ts (recordArgs).
--
-- keys: the bucket, the record's marker (same hash slot). args: now ('' = server TIME), TTL slack ms,
-- pending debt TTL ms, pending hold TTL ms, marker TTL ms, cost, definition as text ('' = the stored
-- definition). On a window limit the cost counts as sent now (RL-V5).
-- Reply: 1 applied, 0 already applied.

function OPERATIONS.record(keys, args)
  local NOW, SLACK, DEBT_TTL, HOLD_TTL, MARKER_TTL, COST, DEFINITION = 1, 2, 3, 4, 5, 6, 7
  if not redis.call('SET', keys[2], '1', 'NX', 'PX', args[MARKER_TTL]) then return 0 end
  local now = read_clock(args[NOW])
  local slack = tonumber(args[SLACK])
  local cost = tonumber(args[COST])
  local raw = redis.call('GET', keys[1])
  local d
  if args[DEFINITION] ~= '' then
    d = define(args[DEFINITION])
  else
    local st = live(parse(raw), now)
    if st == nil or st.pending then
      local debt, hold = 0, NO_HOLD
      if st ~= nil then debt, hold = st.debt, st.hold end
      store_pending(keys[1], math.min(debt + cost, MAX_AMOUNT), hold, now, tonumber(args[DEBT_TTL]), tonumber(args[HOLD_TTL]))
      return 1
    end
    d = define(st.text)
  end
  if d.window then
    local e, hold = effective_window(raw, d, now)
    store(keys[1], d, 0, hold, now, slack, '', window_record(e, d.window, cost, now), nil)
    return 1
  end
  -- (x and the class state relative to now, gcra.lua)
  local x, hold, cs = effective(raw, d, now)
  local y = record_cost(x, d, cost, 0)
  store(keys[1], d, y, hold, now, slack, '', nil, class_raise(settle_classes(cs, x, 0), d, x, y, false))
  return 1
end
