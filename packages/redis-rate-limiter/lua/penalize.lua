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
  local until_ms
  if args[UNTIL] ~= '' then until_ms = tonumber(args[UNTIL]) else until_ms = now + tonumber(args[FOR]) end
  until_ms = clamp_hold(until_ms, now)
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
    local y = penalize_until(st.x, d, until_ms, now)
    local cs = nil
    if not d.quota then cs = class_raise(settle_classes(st.classes, st.x, now), d, st.x, y, true) end
    store(keys[1], d, y, math.max(st.hold, until_ms), now, tonumber(args[SLACK]), '', nil, cs)
  end
  return fmt(until_ms)
end
