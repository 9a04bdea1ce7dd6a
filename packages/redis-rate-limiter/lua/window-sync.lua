-- Window limits, continued (the kit's window.ts): usage reports and answer records (RL-V5, RL-V9), penalties
-- (RL-R3), and a window limit's first definition or conversion from a token bucket (RL-L5).

-- reports (flat a, b, c) latest first: by b descending, then cost descending, then a ascending
local function latest_first(r)
  local idx = {}
  for i = 1, #r, 3 do idx[#idx + 1] = i end
  table.sort(idx, function(x, y)
    if r[x + 1] ~= r[y + 1] then return r[x + 1] > r[y + 1] end
    if r[x + 2] ~= r[y + 2] then return r[x + 2] > r[y + 2] end
    return r[x] < r[y]
  end)
  return idx
end

-- reports kept as kind-1 entries summing, in any interval from now on, to the largest report still counting there
local function add_reports(kept, prior, added, w, now)
  local whole = {}
  local sum = 0
  for _, i in ipairs(latest_first(prior)) do
    sum = sum + prior[i + 2]
    whole[#whole + 1] = prior[i]; whole[#whole + 1] = prior[i + 1]; whole[#whole + 1] = sum
  end
  for i = 1, #added do whole[#whole + 1] = added[i] end
  local out = kept
  local most = 0
  for _, i in ipairs(latest_first(whole)) do
    local c = whole[i + 2]
    if c - most > w.eps then
      out = add_entry(out, whole[i], whole[i + 1], c - most, 1, w, now)
      most = c
    end
  end
  return out
end

-- sent_at: when the reporting request was sent, or nil; since: the earliest its window can have begun, or nil
-- marks the reporting request's own entry answered: the first admitted send not yet answered at sent_at
-- (within a microsecond: the epoch conversion rounds) of exactly answered_cost gets its answered kind, b = now
local function mark_answered(e, sent_at, answered_cost, now)
  if sent_at == nil or answered_cost == nil or not (sent_at <= now) then return e end
  for i = 1, #e, 4 do
    local f = e[i + 3]
    if e[i] == e[i + 1] and math.abs(e[i] - sent_at) <= 1e-3 and e[i + 2] == answered_cost and is_own_kind(f) and not is_answered_kind(f) then
      e[i + 1] = now
      e[i + 3] = answered_kind(f)
      break
    end
  end
  return e
end

-- answer records (the kit's windowSync): flat { a, b, c, used, end_earliest, end_latest } per send a
-- sync with a window end marked answered, as text items 'a/b/c/used/earliest/latest' joined by '|'
local function parse_answers(text)
  local r = {}
  if text == nil then return r end
  for a, b, c, u, x, y in string.gmatch(text, '([^/|]+)/([^/|]+)/([^/|]+)/([^/|]+)/([^/|]+)/([^/|]+)') do
    for _, t in ipairs({ a, b, c, u, x, y }) do
      local v = tonumber(t)
      r[#r + 1] = v
      -- (kept as parsed, so that writing the records back costs no string.format: see FMT_SEEN)
      if v ~= 0 and v == v then FMT_SEEN[v] = t end
    end
  end
  return r
end

local function fmt_answers(r)
  local parts = {}
  for j = 1, #r, 6 do
    parts[#parts + 1] = fmt(r[j]) .. '/' .. fmt(r[j + 1]) .. '/' .. fmt(r[j + 2]) .. '/' .. fmt(r[j + 3]) .. '/' .. fmt(r[j + 4]) .. '/' .. fmt(r[j + 5])
  end
  return table.concat(parts, '|')
end

local function is_single_answered(f)
  return f >= 10 and f <= 15
end

-- the record of the single answered send at i, or nil: only when one entry and one record carry its send
-- time, mark and cost
local function answer_of(e, i, r)
  local a, b, c = e[i], e[i + 1], e[i + 2]
  local found = nil
  for j = 1, #r, 6 do
    if r[j] == a and r[j + 1] == b and r[j + 2] == c then
      if found ~= nil then return nil end
      found = j
    end
  end
  if found == nil then return nil end
  for k = 1, #e, 4 do
    if k ~= i and e[k] == a and e[k + 1] == b and e[k + 2] == c and is_single_answered(e[k + 3]) then return nil end
  end
  return found
end

-- the records after a sync: those of sends still in the window, the latest MAX_ANSWERS, and the marked send's
local function note_answer(r, e, w, now, sent_at, answered_cost, used, end_at)
  local out = {}
  for j = 1, #r, 6 do
    if r[j] + w.span > now then
      for k = 0, 5 do out[#out + 1] = r[j + k] end
    end
  end
  if end_at ~= nil and sent_at ~= nil and answered_cost ~= nil then
    for i = 1, #e, 4 do
      if e[i + 1] == now and is_single_answered(e[i + 3]) and e[i + 2] == answered_cost and math.abs(e[i] - sent_at) <= 1e-3 then
        out[#out + 1] = e[i]; out[#out + 1] = now; out[#out + 1] = answered_cost
        out[#out + 1] = used; out[#out + 1] = end_at[1]; out[#out + 1] = end_at[2]
        break
      end
    end
  end
  if #out > MAX_ANSWERS * 6 then
    local cut = {}
    for j = #out - MAX_ANSWERS * 6 + 1, #out do cut[#cut + 1] = out[j] end
    out = cut
  end
  return out
end

-- a sync with the window's answer records (text or nil) and the reported window's end ({ earliest, latest }
-- or nil): the entries, and the records' text
local function window_sync(e, answers, w, used, now, sent_at, since, counted_own, answered_cost, end_at)
  local pruned = mark_answered(prune_window(e, w, now), sent_at, answered_cost, now)
  local r = parse_answers(answers)
  local known = sent_at ~= nil and sent_at <= now
  local s = now
  if known then s = math.max(sent_at, now - HORIZON_MS) end
  -- counted by now (its answer came back) and at most the jitter allowance after it was sent
  local latest_start = math.min(s + w.jitter, now) - w.window_ms
  if since ~= nil then latest_start = math.max(since, latest_start) end
  local arrived = s - w.jitter
  -- a fixed window's start, kept as the marker merges keep their ranges clear of
  local marks = since ~= nil and since <= now and since + w.span > now
  local ours = 0
  if known then ours = counted_own end
  -- a window end known to within a quarter window tells its window from the next
  if not (known and end_at ~= nil and end_at[1] <= end_at[2] and end_at[2] - end_at[1] < w.window_ms / 4) then end_at = nil end
  -- a fixed window began at or after `forget` (RL-V9): what surely reached the venue before it counts in
  -- none of the venue's windows that can still hold a send (capped at the latest the venue counted the report)
  local forget = -math.huge
  if end_at ~= nil then forget = math.min(end_at[1] - w.window_ms, math.min(s + w.jitter, now)) end
  local reported = math.min(used, MAX_AMOUNT)
  local reports = {}
  local kept = {}
  for i = 1, #pruned, 4 do
    local a, b, c, f = pruned[i], pruned[i + 1], pruned[i + 2], pruned[i + 3]
    if f == 1 then
      if not (known and b + w.jitter <= s) and not (b + w.jitter < forget) then
        reports[#reports + 1] = a; reports[#reports + 1] = b; reports[#reports + 1] = c
      end
    elseif not (f == START_KIND and marks) then
      local keep = true
      -- arrived by its send time, or answered before the reporting request was sent
      if is_own_kind(f) and known and a > latest_start and (last_send(pruned, i) <= arrived or (is_answered_kind(f) and b < s)) then
        ours = ours + c
      elseif end_at ~= nil and is_single_answered(f) then
        -- counted in the same fixed window before the reporting request: its own answer reported less of it
        local j = answer_of(pruned, i, r)
        if j ~= nil and r[j + 3] < reported and r[j + 4] <= end_at[2] and end_at[1] <= r[j + 5] then
          ours = ours + c
        elseif last_send(pruned, i) + w.jitter < forget then
          keep = false
        end
      elseif is_own_kind(f) and last_send(pruned, i) + w.jitter < forget then
        keep = false
      end
      if keep then
        kept[#kept + 1] = a; kept[#kept + 1] = b; kept[#kept + 1] = c; kept[#kept + 1] = f
      end
    end
  end
  if marks then kept = add_entry(kept, since, since, 0, START_KIND, w, now) end
  local others = reported - ours
  -- at the latest time the venue counted it, less the jitter allowance: counted until one window after it
  local at = s
  if known then at = math.min(s + w.jitter, now) - w.jitter end
  local added = {}
  if others > w.eps then added = { at, at, others } end
  return add_reports(kept, reports, added, w, now), fmt_answers(note_answer(r, pruned, w, now, sent_at, answered_cost, reported, end_at))
end

local function window_penalize(e, w, until_ms, now)
  local u = clamp_hold(until_ms, now)
  if not (u + w.span > now) then return prune_window(e, w, now) end
  return add_entry(prune_window(e, w, now), math.min(now, u), u, w.per, 2, w, now)
end

local function window_fold_pending(debt, hold, w, now)
  local e = {}
  if hold > NO_HOLD then e = window_penalize(e, w, hold, now) end
  if debt > 0 then e = window_record(e, w, debt, now) end
  return e
end

local function window_from_borrowed(b, hold, w, now)
  local e = {}
  if b > 0 then e = add_entry({}, now, now, math.min(b, MAX_AMOUNT), 3, w, now) end
  if hold > now then e = window_penalize(e, w, hold, now) end
  return e
end