-- Holds the bucket closed until its end and empty then (RL-R3): x = max(x, until + tau); a hold never
-- shortens an existing one and is clamped to the horizon. On a bucket not yet defined the hold is kept
-- (at least the pending hold TTL after it ends) and folded in at its first definition. Arguments and reply:
-- src/protocol.ts (penalizeArgs).
--
-- keys: the bucket. args: now ('' = server TIME), TTL slack ms, pending debt TTL ms, pending hold TTL ms,
-- until (script time) or '', forMs or ''.
-- Reply: the end of the hold in script time.

function OPERATIONS.penalize(keys, args)
  local NOW, SLACK, DEBT_TTL, HOLD_TTL, UNTIL, FOR = 1, 2, 3, 4, 5, 6
  local now = read_clock(args[NOW])
  -- (the hold's end as given, then clamped to the horizon: a token bucket reads it relative to now)
  local given
  if args[UNTIL] ~= '' then given = tonumber(args[UNTIL]) else given = now + tonumber(args[FOR]) end
  local until_ms = clamp_hold(given, now)
  local st = live(parse(redis.call('GET', keys[1])), now)
  if st == nil or st.pending then
    local debt, hold = 0, NO_HOLD
    if st ~= nil then debt, hold = st.debt, st.hold end
    store_pending(keys[1], debt, math.max(hold, until_ms), now, tonumber(args[DEBT_TTL]), tonumber(args[HOLD_TTL]))
    return fmt(until_ms)
  end
  local d = define(st.text)
  if d.window then
    store(keys[1], d, 0, math.max(st.hold, until_ms), now, tonumber(args[SLACK]), '', window_penalize(st.entries or {}, d.window, until_ms, now), nil)
  else
    -- x, the hold's end and the class state relative to now (gcra.lua)
    local x = rel(st, d, now)
    local y = penalize_until(x, d, given - now, 0)
    local cs = nil
    if not d.quota then cs = class_raise(settle_classes(shift_classes(st.classes, st.at - now), x, 0), d, x, y, true) end
    store(keys[1], d, y, math.max(st.hold, until_ms), now, tonumber(args[SLACK]), '', nil, cs)
  end
  return fmt(until_ms)
end
