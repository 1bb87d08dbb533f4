-- The ends of the UTC calendar day and month that hold `now` (ms since the epoch), the quota
-- windows: src/limits/calendar.ts is the same arithmetic (days from civil and back, as in
-- Howard Hinnant's date algorithms), checked against Date.UTC and against this in Redis.
local DAY_MS = 86400000
local function dayEndOf(t)
  return (math.floor(t / DAY_MS) + 1) * DAY_MS
end
local function monthEndOf(t)
  local z = math.floor(t / DAY_MS) + 719468
  local era = math.floor(z / 146097)
  local doe = z - era * 146097
  local yoe = math.floor((doe - math.floor(doe / 1460) + math.floor(doe / 36524) - math.floor(doe / 146096)) / 365)
  local y = yoe + era * 400
  local doy = doe - (365 * yoe + math.floor(yoe / 4) - math.floor(yoe / 100))
  local mp = math.floor((5 * doy + 2) / 153)
  local m = mp < 10 and mp + 3 or mp - 9
  if m <= 2 then y = y + 1 end
  -- The first day of the next month, back to days since the epoch.
  m = m + 1
  if m > 12 then m = 1; y = y + 1 end
  if m <= 2 then y = y - 1 end
  era = math.floor(y / 400)
  yoe = y - era * 400
  doy = math.floor((153 * (m > 2 and m - 3 or m + 9) + 2) / 5)
  doe = yoe * 365 + math.floor(yoe / 4) - math.floor(yoe / 100) + doy
  return (era * 146097 + doe - 719468) * DAY_MS
end
