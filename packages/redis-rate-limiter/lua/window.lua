-- Window limits as a slot ledger (MODEL.md, "Window limits, rebuilt: the slot ledger"): the same numbers, in the
-- same order, as the kit's slot-ledger.ts; the differential test compares them. A ledger is one flat array: a
-- header of LEDGER_HEADER numbers (named by the AT_* constants, 1-based here), then pairs (slot, amount) in slot
-- order for the slots that hold cost and can still count. Send times fall in slots of g = windowMs / WINDOW_SLOTS
-- ms; an interval of windowMs + jitterMs touches at most M = ceil(span / g) + 1 consecutive slots, and a send of
-- cost c in slot j fits under a line when every run of M slots containing j holds at most line - c.

local NONE = LEDGER_NONE
local NEVER = LEDGER_NEVER
local AT_SUM = 1
local AT_OTHERS = 2
local AT_OTHERS_SLOT = 3
local AT_OTHERS_UNTIL = 4
local AT_OPEN_FROM = 5
local AT_WINDOW_FROM = 6
local AT_END_MIN = 7
local AT_END_MAX = 8
local LEDGER_HEADER = 8

local function empty_ledger()
  return { tb = '', tf = 1, tc = 0, tt = '', tl = 0, 0, 0, NONE, NEVER, NONE, NONE, NEVER, NEVER }
end

-- A ledger given to these functions is never changed (a parsed one is shared, stored.lua): a function that
-- changes one changes its own copy. A ledger carries its pairs' text (ledger-text.lua) when it can.

-- a copy of a ledger
local function copy_ledger(e)
  local n = #e
  if n <= 1000 then return { tb = e.tb, tf = e.tf, tc = e.tc, tt = e.tt, tl = e.tl, unpack(e) } end
  local c = { tb = e.tb, tf = e.tf, tc = e.tc, tt = e.tt, tl = e.tl }
  for i = 1, n do c[i] = e[i] end
  return c
end

-- e, or a fresh empty ledger for a bucket that has none yet ({})
local function ledger(e)
  if #e < LEDGER_HEADER then return empty_ledger() end
  return e
end

local function slot_of(t, w)
  return math.floor(t / w.g)
end

-- the pairs' sum, recomputed
local function sum_of(e)
  local sum = 0
  for i = LEDGER_HEADER + 2, #e, 2 do sum = sum + e[i] end
  return sum
end

-- a copy of e without the pairs before index `from` (and a fresh sum when any went)
local function drop_head(e, from)
  local n = #e
  local out
  if n - from < 1000 then
    -- (the header's LEDGER_HEADER numbers, then the pairs kept)
    out = {
      tb = e.tb, tf = e.tf, tc = e.tc, tt = e.tt, tl = e.tl,
      e[1], e[2], e[3], e[4], e[5], e[6], e[7], e[8], unpack(e, from, n),
    }
  else
    out = { tb = e.tb, tf = e.tf, tc = e.tc, tt = e.tt, tl = e.tl }
    for i = 1, LEDGER_HEADER do out[i] = e[i] end
    for i = from, n do out[#out + 1] = e[i] end
  end
  if from == LEDGER_HEADER + 1 then return out end
  out[AT_SUM] = sum_of(out)
  if from > n then return text_none(out) end
  return text_drop(out, e, from - LEDGER_HEADER - 1)
end

-- the index of the first pair whose slot is at or after `slot`, looking from index i (the first pair when nil)
local function first_from(e, slot, i)
  i = i or LEDGER_HEADER + 1
  local n = #e
  while i <= n and e[i] < slot do i = i + 2 end
  return i
end

local function clear_others(e)
  e[AT_OTHERS] = 0
  e[AT_OTHERS_SLOT] = NONE
  e[AT_OTHERS_UNTIL] = NEVER
end

-- past the reported fixed window's end, that window is over: what surely reached the venue before it ended and
-- others' use reported in it are forgotten; e itself when there is nothing to roll over
local function roll_over(raw, w, t)
  local e = ledger(raw)
  local end_max = e[AT_END_MAX]
  if t < end_max then return e end
  local end_min = e[AT_END_MIN]
  local out = drop_head(e, first_from(e, math.floor((end_min - w.jitter) / w.g)))
  if out[AT_OTHERS_UNTIL] <= end_max then clear_others(out) end
  out[AT_WINDOW_FROM] = end_min
  out[AT_END_MIN] = NEVER
  out[AT_END_MAX] = NEVER
  return out
end

-- drops what no run containing a send at or after now can hold
local function prune_window(raw, w, now)
  local e = ledger(raw)
  local oldest = slot_of(now, w) - w.M
  local rolled = roll_over(e, w, now)
  local from = first_from(rolled, oldest + 1)
  local out
  if from == LEDGER_HEADER + 1 then out = copy_ledger(rolled) else out = drop_head(rolled, from) end
  if out[AT_OTHERS_SLOT] ~= NONE and (out[AT_OTHERS_SLOT] <= oldest or now >= out[AT_OTHERS_UNTIL]) then clear_others(out) end
  if #out == LEDGER_HEADER then out[AT_SUM] = 0 end
  return out
end

-- adds cost to slot j, in order (and to the ledger's text when j is its last slot or after it)
local function add_at(e, j, cost)
  local last = #e + 1
  local i = last
  while i > LEDGER_HEADER + 1 and e[i - 2] > j do i = i - 2 end
  if i ~= last then e.tb = nil end
  if i > LEDGER_HEADER + 1 and e[i - 2] == j then
    local amount = math.min(e[i - 1] + cost, MAX_AMOUNT)
    e[i - 1] = amount
    text_set_last(e, fmt_kept(amount))
  else
    table.insert(e, i, cost)
    table.insert(e, i, j)
    text_append(e, fmt_kept(j), fmt_kept(cost))
  end
  e[AT_SUM] = math.min(e[AT_SUM] + cost, MAX_AMOUNT)
  return e
end

-- a charge as of the send time s (RL-A1, RL-M5)
local function window_charge(e, w, cost, s, now)
  return add_at(prune_window(e, w, now), slot_of(s, w), cost)
end

-- a record (RL-R1): counted as sent now, even beyond the limit; clamped
local function window_record(e, w, cost, now)
  return add_at(prune_window(e, w, now), slot_of(now, w), math.min(cost, MAX_AMOUNT))
end

-- whether a sync's windowEnd (end_min, end_max) tells its venue window from the next
local function tells_window(w, end_min, end_max)
  return end_min ~= nil and end_max >= end_min and end_max - end_min < w.window_ms / 4
end

-- a venue's report (RL-V5): others' use is used less the larger of two lower bounds of own counted cost (the
-- ledger's count plus the caller's sent outside its times, and the caller's whole count)
local function window_sync(e, w, used, now, sent_at, counted_own, end_min, end_max, outside_own)
  local out = prune_window(e, w, now)
  local known = sent_at ~= nil and sent_at <= now
  if not known then sent_at = now end
  local J = w.jitter
  local c = math.min(sent_at + J, now)
  local fixed = tells_window(w, end_min, end_max)
  if fixed and end_max <= out[AT_WINDOW_FROM] then return out end
  local own = 0
  if known then
    -- the window began by then: windowMs before the latest end a report gives (however loosely), or c - windowMs
    local starts_by
    if end_max ~= nil then starts_by = end_max - w.window_ms else starts_by = c - w.window_ms end
    local first
    if end_max ~= nil then first = math.ceil(starts_by / w.g) else first = math.floor(starts_by / w.g) + 1 end
    local last_counted = math.floor((sent_at - J) / w.g) - 1
    local i = LEDGER_HEADER + 1
    while i <= #out and out[i] <= last_counted do
      if out[i] >= first then own = own + out[i + 1] end
      i = i + 2
    end
  end
  local counted = own
  if known then counted = math.max(own + outside_own, counted_own) end
  local others = math.min(used, MAX_AMOUNT) - counted
  -- an earlier report the venue counted before this request was sent is covered by this one
  if out[AT_OTHERS_SLOT] ~= NONE and (out[AT_OTHERS_SLOT] + 1) * w.g + J <= sent_at then clear_others(out) end
  -- others' use reported in a fixed window that ended before this one can have begun counts no more
  if fixed and out[AT_OTHERS_UNTIL] <= end_min - w.window_ms then clear_others(out) end
  if others > w.eps then
    out[AT_OTHERS] = math.max(out[AT_OTHERS], others)
    out[AT_OTHERS_SLOT] = math.max(out[AT_OTHERS_SLOT], slot_of(c - J, w))
    if fixed then out[AT_OTHERS_UNTIL] = end_max else out[AT_OTHERS_UNTIL] = NEVER end
  end
  if not fixed then return out end
  -- what surely reached the venue before the window began (slots whose last instant + J is before B)
  local B = math.min(end_min - w.window_ms, c)
  if B > out[AT_WINDOW_FROM] then out[AT_WINDOW_FROM] = B end
  local kept = drop_head(out, first_from(out, math.floor((B - J) / w.g)))
  kept[AT_END_MIN] = end_min
  kept[AT_END_MAX] = end_max
  return kept
end

-- a penalty (RL-R3): nothing before until_ms, and the window full then
local function window_penalize(e, w, until_ms, now)
  local out = prune_window(e, w, now)
  local until_at = clamp_hold(until_ms, now)
  if not (until_at > now - w.span) then return out end
  out[AT_OPEN_FROM] = math.max(out[AT_OPEN_FROM], slot_of(until_at, w) + w.M)
  return out
end

-- the time from which nothing counts any more (-math.huge when nothing does)
local function window_expiry(raw, w)
  local e = ledger(raw)
  local last = NONE
  if #e > LEDGER_HEADER then last = e[#e - 1] end
  local slot = math.max(last, e[AT_OTHERS_SLOT])
  local open = e[AT_OPEN_FROM]
  local a, b = NONE, NONE
  if slot ~= NONE then a = (slot + w.M) * w.g end
  if open ~= NONE then b = open * w.g end
  local at = math.max(a, b)
  if at == NONE then return -math.huge end
  return at
end

-- the first window definition of a bucket that had only a hold and/or recorded debt (RL-R1, RL-R3)
local function window_fold_pending(debt, hold, w, now)
  local e = empty_ledger()
  if hold > NO_HOLD then e = window_penalize(e, w, hold, now) end
  if debt > 0 then e = window_record(e, w, debt, now) end
  return e
end

-- a window limit that took over what another definition had borrowed (RL-L5)
local function window_from_borrowed(b, hold, w, now)
  local e = empty_ledger()
  if b > 0 then e = window_record(e, w, b, now) end
  if hold > now then e = window_penalize(e, w, hold, now) end
  return e
end
