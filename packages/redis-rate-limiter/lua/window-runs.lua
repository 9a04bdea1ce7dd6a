-- Window limits: a send's time among the runs of a slot ledger (window.lua), and what a ledger holds from now
-- on. The same numbers, in the same order, as the kit's window.ts (its worstRun, earliestIn and borrowed): the
-- differential test compares them. A run is M consecutive slots; a send of cost c in slot j fits under a line
-- when every run containing j holds at most line - c.

-- the run of M slots starting at `start`: pairs from index `from` to before `to`, others' use when in it
local function run_from(e, M, start, from, to, others, other_slot)
  local total = 0
  local stop = start + M - 1
  if others > 0 and other_slot >= start and other_slot <= stop then total = others end
  for i = from, to - 1, 2 do
    local k = e[i]
    if k >= start and k <= stop then total = total + e[i + 1] end
  end
  return total
end

-- the largest run of M slots containing slot j, others' use counted as a send at time t counts it (window.ts's
-- worstRun: the same runs, the same sums): a run is largest where a slot enters it
local function worst_run(e, w, j, t)
  local M = w.M
  local lo = j - M + 1
  local hi = j + M - 1
  local n = #e
  -- (first_from, and others' use as counted by a send in slot j at time t, written out)
  local from = LEDGER_HEADER + 1
  while from <= n and e[from] < lo do from = from + 2 end
  local to = from
  while to <= n and e[to] <= hi do to = to + 2 end
  local other_slot = e[AT_OTHERS_SLOT]
  local others = 0
  if other_slot > j - M and other_slot < j + M and t < e[AT_OTHERS_UNTIL] then others = e[AT_OTHERS] end
  local worst = 0
  for k = from - 2, to - 1, 2 do
    local start
    if k < from then start = lo else start = e[k] - M + 1 end
    if start >= lo and start <= j then
      local total = run_from(e, M, start, from, to, others, other_slot)
      if total > worst then worst = total end
    end
  end
  if others > 0 then
    local start = other_slot - M + 1
    if start > lo and start <= j then
      local total = run_from(e, M, start, from, to, others, other_slot)
      if total > worst then worst = total end
    end
  end
  return worst
end

-- earliest_in's candidate slots come in increasing order; the cost in the run of M slots ending at each is kept
-- as a running total between them (SLIDE: the total, the next pair to enter it, the next to leave it), one pass
-- over the ledger for all of them
local SLIDE = {}

-- whether the run of M slots ending at slot j (others' use counted as worst_run counts it at time t) is over
-- limit less cost by more than margin, the running total's rounding: then that run's exact total + cost is over
-- limit too, so the candidate does not fit (fits_at would check that run first) and needs no exact check
local function surely_over(e, w, j, t, cost, limit, margin)
  local n = #e
  local sum, enter, leave = SLIDE[1], SLIDE[2], SLIDE[3]
  while enter <= n and e[enter] <= j do
    sum = sum + e[enter + 1]
    enter = enter + 2
  end
  local lo = j - w.M + 1
  while leave < enter and e[leave] < lo do
    sum = sum - e[leave + 1]
    leave = leave + 2
  end
  SLIDE[1], SLIDE[2], SLIDE[3] = sum, enter, leave
  local other_slot = e[AT_OTHERS_SLOT]
  if other_slot >= lo and other_slot <= j and t < e[AT_OTHERS_UNTIL] then sum = sum + e[AT_OTHERS] end
  return sum + cost > limit + margin
end

-- whether a send of cost in slot j at time t fits: every run worst_run(e, w, j, t) weighs holds at most limit less
-- cost (window.ts's worstRun(...) + cost <= limit: float addition keeps order, so the largest fits exactly when
-- every one does). The runs in the order they start, each total kept as a running sum, and summed exactly as
-- worst_run sums it (run_from) only where the running sum is within margin of the line; the pairs are looked for
-- from index `head` (at or before the first a run containing j can hold)
local function fits_at(e, w, j, t, head, cost, limit, margin)
  local M = w.M
  local lo = j - M + 1
  local n = #e
  local from = head
  while from <= n and e[from] < lo do from = from + 2 end
  local to = from
  while to <= n and e[to] <= j + M - 1 do to = to + 2 end
  local other_slot = e[AT_OTHERS_SLOT]
  local others = 0
  if other_slot > j - M and other_slot < j + M and t < e[AT_OTHERS_UNTIL] then others = e[AT_OTHERS] end
  local sum, enter, leave = 0, from, from
  -- the run starting at lo, then one at each slot that enters a run containing j (a pair at or after j)
  local k = from - 2
  while k < to do
    local start = lo
    if k >= from then start = e[k] - M + 1 end
    if start >= lo then
      local stop = start + M - 1
      while enter < to and e[enter] <= stop do
        sum = sum + e[enter + 1]
        enter = enter + 2
      end
      while leave < enter and e[leave] < start do
        sum = sum - e[leave + 1]
        leave = leave + 2
      end
      local total = sum
      if others > 0 and other_slot >= start and other_slot <= stop then total = total + others end
      if total + cost > limit + margin then return false end
      if total + cost >= limit - margin and run_from(e, M, start, from, to, others, other_slot) + cost > limit then return false end
    end
    k = k + 2
  end
  if others > 0 then
    local start = other_slot - M + 1
    if start > lo and start <= j and run_from(e, M, start, from, to, others, other_slot) + cost > limit then return false end
  end
  return true
end

-- the earliest time at or after `from` at which cost fits under line, the ledger as it is (no roll-over)
local function earliest_in(e, w, cost, from, line)
  local s = from
  local open_from = e[AT_OPEN_FROM]
  local g = w.g
  local j0 = math.floor(s / g)
  if j0 < open_from then
    s = open_from * g
    j0 = math.floor(s / g)
  end
  local n = #e
  -- (first_from and others_for, written out: this is every window call's path)
  local head = LEDGER_HEADER + 1
  local oldest = j0 - w.M + 1
  while head <= n and e[head] < oldest do head = head + 2 end
  local last = NONE
  if n > LEDGER_HEADER then last = e[n - 1] end
  local other_slot = e[AT_OTHERS_SLOT]
  if last <= j0 and other_slot <= j0 then
    -- nothing booked ahead: the run ending at j0 is the largest containing it
    local sum = e[AT_SUM]
    for i = LEDGER_HEADER + 1, head - 1, 2 do sum = sum - e[i + 1] end
    local others = 0
    if other_slot > j0 - w.M and other_slot < j0 + w.M and s < e[AT_OTHERS_UNTIL] then others = e[AT_OTHERS] end
    local need = sum + others + cost - line - w.eps
    if need <= 0 then return s end
    -- full: the first slot where enough has left every run (slot k leaves at k + M)
    local left = 0
    local others_left = others == 0
    for i = head, #e, 2 do
      local k = e[i]
      if not others_left and other_slot <= k then
        others_left = true
        left = left + others
        if left >= need then return (other_slot + w.M) * w.g end
      end
      left = left + e[i + 1]
      if left >= need then return (k + w.M) * w.g end
    end
    return (math.max(last, other_slot) + w.M) * w.g
  end
  local limit = line + w.eps
  -- (a float sum's rounding is under 1e-15 of the largest total per step: 1e-9 of all there is to add covers
  -- a thousand steps many times over)
  local margin = 1e-9 * (e[AT_SUM] + e[AT_OTHERS] + limit + cost)
  SLIDE[1], SLIDE[2], SLIDE[3] = 0, head, head
  if not surely_over(e, w, j0, s, cost, limit, margin) and fits_at(e, w, j0, s, head, cost, limit, margin) then return s end
  -- the times a slot leaves every run, in order (window.ts sorts them: the pairs' are in slot order already,
  -- others' is merged in), the first where every run fits
  local M = w.M
  local others_at = other_slot + M
  local others_due = others_at > j0
  for i = head, n, 2 do
    local j = e[i] + M
    if j > j0 then
      if others_due and others_at <= j then
        others_due = false
        local t = others_at * g
        if not surely_over(e, w, others_at, t, cost, limit, margin) and fits_at(e, w, others_at, t, head, cost, limit, margin) then
          return t
        end
      end
      local t = j * g
      if not surely_over(e, w, j, t, cost, limit, margin) and fits_at(e, w, j, t, head, cost, limit, margin) then return t end
    end
  end
  if others_due and fits_at(e, w, others_at, others_at * g, head, cost, limit, margin) then return others_at * g end
  return (math.max(last, other_slot) + M) * g
end

-- the earliest time at or after `from` a send of cost fits under line (RL-V2), math.huge above the line (RL-V3)
local function window_send_time(e, w, cost, from, line)
  if cost > line + w.eps then return math.huge end
  -- (roll_over at once when the reported window is over by then; most ledgers report none: end_max is NEVER)
  local now = e
  if #e < LEDGER_HEADER then
    now = empty_ledger()
  elseif from >= e[AT_END_MAX] then
    now = roll_over(e, w, from)
  end
  local t = earliest_in(now, w, cost, from, line)
  local end_max = now[AT_END_MAX]
  if t <= end_max then return t end
  return math.min(t, earliest_in(roll_over(now, w, end_max), w, cost, end_max, line))
end

-- borrowed(now) (RL-I1): the most any run containing a send from now on holds; the whole limit while closed
local function window_borrowed(e, w, now)
  local p = prune_window(e, w, now)
  local j = slot_of(now, w)
  local most = 0
  if p[AT_OPEN_FROM] > j then most = w.per end
  most = math.max(most, worst_run(p, w, j, now))
  for i = LEDGER_HEADER + 1, #p, 2 do
    if p[i] > j then most = math.max(most, worst_run(p, w, p[i], p[i] * w.g)) end
  end
  return most
end
