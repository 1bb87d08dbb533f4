-- A whole number as the digits Redis would store, formatted here: Redis 7.0 turns a Lua
-- number argument into text with "%.17g", which costs about a microsecond a number (measured:
-- docs/benchmarks.md, "Lua's own cost"); string.format('%d') is the cheaper way to the same,
-- within the integers a double holds exactly (beyond them '%d' would not be the same text).
local function int(v)
  if v % 1 == 0 and v > -9007199254740992 and v < 9007199254740992 then return string.format('%d', v) end
  return v
end
