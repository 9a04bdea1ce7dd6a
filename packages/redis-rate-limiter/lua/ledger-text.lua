-- A slot ledger's pairs as text (window.lua's ledgers, stored.lua's values). A call changes a pair or two at
-- either end of a ledger, so the value it writes is joined from the text the last call wrote and what this call
-- changed, rather than from every number again: Redis's Lua hashes every byte of every string it makes, so a
-- call makes as few long strings as it can (the value read, the part of it kept, the value written).
--
-- A ledger may carry its pairs' text: the part of a base string tb from index tf to tc, then a tail tt (what
-- this call added), and tl, the length of the last amount's text. A function that changes a ledger's pairs keeps
-- these or drops tb (nil: stored.lua formats the pairs whole). (A ledger made by a copy gets the five fields in
-- its table constructor, window.lua: set one by one, each new field would grow the table's hash part again.)

-- the text of no pairs
local function text_none(e)
  e.tb, e.tf, e.tc, e.tt, e.tl = '', 1, 0, '', 0
  return e
end

-- from's text less its first n numbers (n > 0), onto `to` (which has from's fields); none kept when they reach
-- past the base
local function text_drop(to, from, n)
  local tb, tc = from.tb, from.tc
  if tb == nil then return to end
  local pos = from.tf
  for _ = 1, n do
    local comma = string.find(tb, ',', pos, true)
    if comma == nil or comma > tc then
      to.tb = nil
      return to
    end
    pos = comma + 1
  end
  to.tf = pos
  return to
end

-- the last amount's text replaced by s
local function text_set_last(e, s)
  if e.tb == nil then return end
  local tt = e.tt
  if tt ~= '' then
    e.tt = string.sub(tt, 1, #tt - e.tl) .. s
  else
    e.tc = e.tc - e.tl
    e.tt = s
  end
  e.tl = #s
end

-- a pair's text (slot j_text, amount s) added after the others
local function text_append(e, j_text, s)
  if e.tb == nil then return end
  local tt = e.tt
  if tt ~= '' or e.tc >= e.tf then tt = tt .. ',' end
  e.tt = tt .. j_text .. ',' .. s
  e.tl = #s
end
