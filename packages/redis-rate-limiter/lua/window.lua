-- Window limits (the kit's window.ts, RL-V1..RL-V8): the entries' kinds, fitting, the earliest fitting time,
-- held sends, merging past the bound, borrowed, charges and records. Syncs and penalties: window-sync.lua.

-- window limits (window.ts): entries flat, 4 numbers each: a, b, c, f
local MAX_WINDOW_ENTRIES = 128
-- a critical cost a merge may move onto the lines for nothing, as a share of the limit (a gate)
local GATE = 1e-6
local MAX_ANSWERS = 128

-- admitted sends: kinds 0 normal, 4 critical, 5 bulk; one send a sync said was answered: 10, 11, 12 (b: when the store
-- learned it; still counted by its send time a), 13, 14, 15 (one that may have arrived as late as its mark: counted
-- until b); such sends merged: 7, 8, 9 (b: the latest mark)
local function is_own_kind(f)
  return f == 0 or f == 4 or f == 5 or (f >= 7 and f <= 15)
end

-- whether a kind is an admitted send a sync said was answered, or such sends merged
local function is_answered_kind(f)
  return f >= 7 and f <= 15
end

-- whether a kind is a critical send, answered or not
local function is_critical_kind(f)
  return f == 4 or f == 8 or f == 11 or f == 14
end

-- the kind of one send of class kind f (0, 4, 5) marked answered: 10, 11, 12
local function answered_kind(f)
  if f == 4 then return 11 end
  if f == 5 then return 12 end
  return 10
end

-- the kind of merged answered sends of class kind f (0, 4, 5): 7, 8, 9
local function merged_answered_kind(f)
  if f == 4 then return 8 end
  if f == 5 then return 9 end
  return 7
end

-- the latest send time the entry at index i stands for: a for one answered send (10, 11, 12), b for every other kind
local function last_send(e, i)
  local f = e[i + 3]
  if f >= 10 and f <= 12 then return e[i] end
  return e[i + 1]
end

-- what merges with what at no cost beyond the width: entries of one kind; admitted sends of classes
-- normal and bulk together, and critical sends among themselves (a line counts every send but critical
-- ones: a critical send merged with a lower class's costs besides the span times its share of the cost)
local function merge_group(f)
  if is_own_kind(f) then
    if is_critical_kind(f) then return 4 end
    return 0
  end
  return f
end

-- two merged admitted sends take the lowest class among them, answered only when both were
local function merged_kind(f, g)
  if not is_own_kind(f) then return f end
  local cls = 4
  if f == 5 or f == 9 or f == 12 or f == 15 or g == 5 or g == 9 or g == 12 or g == 15 then cls = 5
  elseif f == 0 or f == 7 or f == 10 or f == 13 or g == 0 or g == 7 or g == 10 or g == 13 then cls = 0 end
  if is_answered_kind(f) and is_answered_kind(g) then return merged_answered_kind(cls) end
  return cls
end

local function count_at(e, span, T)
  local sum = 0
  for i = 1, #e, 4 do
    -- (last_send inlined: this loop runs for every candidate time)
    local f, u = e[i + 3], e[i + 1]
    if f >= 10 and f <= 12 then u = e[i] end
    if e[i] <= T and T < u + span then sum = sum + e[i + 2] end
  end
  return sum
end

-- the entry kind of an admitted send of class cls (0 critical, 1 normal, 2 bulk), and whether a kind is one
local function own_kind(cls)
  if cls == 0 then return 4 end
  if cls == 2 then return 5 end
  return 0
end

-- room for cost in the interval ending at T: within the limit, every entry counted, and within the class's
-- line, every entry but critical sends (kinds 4, 8, 11, 14) counted: they spend the share the line keeps
-- free (RL-Q4); and, every entry counted, within the limit less keep (bulk's half share, bulk_keep)
local function room_at(e, w, cost, T, line, keep)
  local count, critical = 0, 0
  for i = 1, #e, 4 do
    -- (last_send inlined: this loop runs for every candidate time)
    local f, u = e[i + 3], e[i + 1]
    if f >= 10 and f <= 12 then u = e[i] end
    if e[i] <= T and T < u + w.span then
      count = count + e[i + 2]
      if is_critical_kind(e[i + 3]) then critical = critical + e[i + 2] end
    end
  end
  if count > w.per + w.eps - cost then return false end
  if line == w.per then return true end
  if count - critical > line + w.eps - cost then return false end
  return keep == 0 or not (count > w.per - keep + w.eps - cost)
end

-- what a class leaves free whatever critical calls spent (RL-Q4): bulk half the share its line keeps free
local function bulk_keep(per, line, cls)
  if cls == 2 then return (per - line) / 2 end
  return 0
end

local function fits(e, w, cost, t, line, keep)
  if not room_at(e, w, cost, t, line, keep) then return false end
  for i = 1, #e, 4 do
    local a = e[i]
    if a > t and a < t + w.span and not room_at(e, w, cost, a, line, keep) then return false end
  end
  return true
end

local function window_send_time(e, w, cost, from, line, keep)
  if line == nil then line = w.per end
  if keep == nil then keep = 0 end
  if cost > line + w.eps then return math.huge end
  if fits(e, w, cost, from, line, keep) then return from end
  local candidates = {}
  for i = 1, #e, 4 do
    local t = last_send(e, i) + w.span
    if t > from then candidates[#candidates + 1] = t end
  end
  table.sort(candidates)
  for _, t in ipairs(candidates) do
    if fits(e, w, cost, t, line, keep) then return t end
  end
  return math.huge
end

-- heldIndex (window.ts, RL-V8): the first unanswered admitted send of cost held at held_at (to within a
-- microsecond), or nil
local function held_index(e, cost, held_at)
  for i = 1, #e, 4 do
    local f = e[i + 3]
    if (f == 0 or f == 4 or f == 5) and e[i] == e[i + 1] and math.abs(e[i] - held_at) <= 1e-3 and e[i + 2] == cost then return i end
  end
  return nil
end

-- a copy of the entries without the one at index i
local function without_entry(e, i)
  local others = {}
  for j = 1, #e do
    if j < i or j >= i + 4 then others[#others + 1] = e[j] end
  end
  return others
end

-- withoutHeld (window.ts): the entries without that send; the list itself when there is none
local function without_held(e, cost, held_at)
  local i = held_index(e, cost, held_at)
  if i == nil then return e end
  return without_entry(e, i)
end

-- windowHeldWait (window.ts, RL-V8): 0 when the booked send held at held_at (one unanswered send of its
-- own there, of exactly cost) still fits there with everything else counted, against the limit itself;
-- else the wait until a new admission of cost fits, its entry still counted, at least 1; 0 when not held
local function window_held_wait(e, w, cost, held_at, now)
  local i = held_index(e, cost, held_at)
  if i == nil then return 0 end
  -- asked at the entry's own time (the caller's copy may be off by a rounding)
  if fits(without_entry(e, i), w, cost, e[i], w.per, 0) then return 0 end
  return math.max(1, window_send_time(e, w, cost, now, w.per, 0) - now)
end

-- the kind of the entry marking where a fixed window began, as the last report bounded it (cost 0)
local START_KIND = 6

-- the entries still counting for an interval ending at or after now; the start marker stays while any other does
local function prune_window(e, w, now)
  local any = false
  for i = 1, #e, 4 do
    if e[i + 3] ~= START_KIND and last_send(e, i) + w.span > now then any = true end
  end
  local out = {}
  for i = 1, #e, 4 do
    if last_send(e, i) + w.span > now or (any and e[i + 3] == START_KIND) then
      out[#out + 1] = e[i]; out[#out + 1] = e[i + 1]; out[#out + 1] = e[i + 2]; out[#out + 1] = e[i + 3]
    end
  end
  return out
end

-- what merging into the range [a, b] costs syncs beyond its width, ms (window.ts syncCost): 0 sent 2 jitters before now or booked
-- after now, 2 jitters inside the last 2 jitters, window_ms from before them into them; with a start marked by a report, window_ms
-- more when not within one aligned window clear of its first 2 jitters, or not within one window of its phase 2 jitters clear of both ends
local function sync_cost(a, b, w, now, start)
  local line = now - 2 * w.jitter
  local recent
  if b <= line or a > now then recent = 0 elseif a > line then recent = 2 * w.jitter else recent = w.window_ms end
  if start == nil then return recent end
  local k = math.floor(a / w.window_ms)
  if not (k == math.floor(b / w.window_ms) and a - k * w.window_ms >= 2 * w.jitter) then return recent + w.window_ms end
  local from = start + math.floor((a - start) / w.window_ms) * w.window_ms
  if a - from >= 2 * w.jitter and b < from + w.window_ms - 2 * w.jitter then return recent end
  return recent + w.window_ms
end

-- where a list's start marker puts the venue's windows, or nil
local function marked_start(e)
  for i = 1, #e, 4 do
    if e[i + 3] == START_KIND then return e[i] end
  end
  return nil
end

local function add_entry(e, a, b, cost, f, w, now)
  local out = {}
  local placed = false
  for i = 1, #e, 4 do
    if not placed and a < e[i] then
      out[#out + 1] = a; out[#out + 1] = b; out[#out + 1] = cost; out[#out + 1] = f
      placed = true
    end
    out[#out + 1] = e[i]; out[#out + 1] = e[i + 1]; out[#out + 1] = e[i + 2]; out[#out + 1] = e[i + 3]
  end
  if not placed then
    out[#out + 1] = a; out[#out + 1] = b; out[#out + 1] = cost; out[#out + 1] = f
  end
  while #out > MAX_WINDOW_ENTRIES * 4 do
    local bi, bj, best = -1, -1, math.huge
    local start = marked_start(out)
    -- for each entry, the next one of its merge group and the next admitted send (-1: none), in one pass
    local next_same, next_own, last_of, last_own = {}, {}, {}, -1
    for i = #out - 3, 1, -4 do
      local g = merge_group(out[i + 3])
      next_same[i] = last_of[g] or -1
      last_of[g] = i
      next_own[i] = last_own
      if is_own_kind(out[i + 3]) then last_own = i end
    end
    for i = 1, #out, 4 do
      local fi = out[i + 3]
      local j = next_same[i]
      if j >= 0 then
        local stop = math.max(out[i + 1], out[j + 1])
        local score = stop - out[i] + sync_cost(out[i], stop, w, now, start)
        if score < best then
          best, bi, bj = score, i, j
        end
      end
      if is_own_kind(fi) then
        -- the next admitted send of the other side (critical or not): merged, the critical cost counts
        -- against the lines for as long as it counts; a critical cost of at most a millionth of the
        -- limit (a gate) costs them nothing to speak of
        local k = next_own[i]
        if k >= 0 and merge_group(out[k + 3]) ~= merge_group(fi) then
          local stop = math.max(out[i + 1], out[k + 1])
          local ci, ck = out[i + 2], out[k + 2]
          local critical = ck
          if is_critical_kind(fi) then critical = ci end
          local score = stop - out[i] + sync_cost(out[i], stop, w, now, start)
          if critical > GATE * w.per then score = score + (w.span * critical) / (ci + ck) end
          if score < best then
            best, bi, bj = score, i, k
          end
        end
      end
    end
    out[bi + 1] = math.max(out[bi + 1], out[bj + 1])
    out[bi + 2] = math.min(out[bi + 2] + out[bj + 2], MAX_AMOUNT)
    out[bi + 3] = merged_kind(out[bi + 3], out[bj + 3])
    for _ = 1, 4 do table.remove(out, bj) end
  end
  return out
end

local function window_borrowed(e, w, now)
  local most = count_at(e, w.span, now)
  for i = 1, #e, 4 do
    if e[i] > now then most = math.max(most, count_at(e, w.span, e[i])) end
  end
  return most
end

local function window_expiry(e, w)
  local last = -math.huge
  for i = 1, #e, 4 do last = math.max(last, last_send(e, i) + w.span) end
  return last
end

local function window_charge(e, w, cost, s, now, cls)
  return add_entry(prune_window(e, w, now), s, s, cost, own_kind(cls), w, now)
end

-- a record (kind 3 at now); with late = { t, x, y } (RL-V7) the first own entry of one send at t (within a
-- microsecond) of exactly cost moves to [x, y] instead (answered: counted until its mark, or [x, max(mark, y)] of
-- its merged answered kind); merged with others, every own entry whose range holds t counts until y at the least
local function window_record(e, w, cost, now, late)
  local kept = prune_window(e, w, now)
  if late ~= nil then
    local t, x, y = late[1], late[2], late[3]
    for i = 1, #kept, 4 do
      local f = kept[i + 3]
      if math.abs(kept[i] - t) <= 1e-3 and kept[i + 2] == cost and is_own_kind(f) then
        local single = kept[i] == kept[i + 1] and not is_answered_kind(f)
        if single or (f >= 10 and f <= 15) then
          if not single and math.abs(x - kept[i]) <= 1e-3 and y <= kept[i + 1] then
            -- sent when admitted, arrived by its mark at the latest: counted until its mark, still one send
            if is_critical_kind(f) then kept[i + 3] = 14 elseif f == 5 or f == 12 or f == 15 then kept[i + 3] = 15 else kept[i + 3] = 13 end
            return kept
          end
          local b, g = y, f
          if not single then
            b = math.max(kept[i + 1], y)
            if is_critical_kind(f) then g = 8 elseif f == 12 or f == 15 then g = 9 else g = 7 end
          end
          for _ = 1, 4 do table.remove(kept, i) end
          return add_entry(kept, x, b, cost, g, w, now)
        end
      end
    end
    -- merged with other sends: every own entry (not one answered send) whose range holds t counts until y at the least
    local widened = false
    for i = 1, #kept, 4 do
      local f = kept[i + 3]
      if is_own_kind(f) and not (f >= 10 and f <= 15) and kept[i] - 1e-3 <= t and t <= kept[i + 1] + 1e-3 then
        kept[i + 1] = math.max(kept[i + 1], y)
        widened = true
      end
    end
    if widened then return kept end
  end
  return add_entry(kept, now, now, math.min(cost, MAX_AMOUNT), 3, w, now)
end