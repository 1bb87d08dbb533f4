--[[
  What one client has used of one tool's limits, read without counting anything: the steps
  of readUsage() in src/limits/usage.ts, field for field (GET /api/usage). Read on the
  client's quota hash, the quota fields are its totals over every tool.

  Input:
    KEYS[1]       the counters (<prefix>lim:{<client>}:<toolId>)
    KEYS[2]       the leases (<prefix>lim:{<client>}:<toolId>:l)
    ARGV[1]       now in ms (0: Redis server time)
    ARGV[2]       the tier whose rate counters count ('' without one)
  Output:
    rate used, ms to the rate window's end (0: no open window), burst used, ms to the burst
    window's end, budget used, ms to the budget window's end, leases held, then the quota
    windows: runs and worker ms of the UTC day and ms to its end, the same of the month
]]
-- @include now

local tier = ARGV[2]
local f = redis.call('HMGET', KEYS[1], 'c' .. tier, 'e' .. tier, 'b' .. tier, 'f' .. tier, 'u', 'v',
  'dr', 'de', 'dm', 'mr', 'me', 'mm')
local function open(count, ends)
  local e = tonumber(ends) or 0
  if e <= now then return 0, 0 end
  return tonumber(count) or 0, e - now
end
local rate, rateMs = open(f[1], f[2])
local burst, burstMs = open(f[3], f[4])
local used, usedMs = open(f[5], f[6])
local leases = redis.call('ZCOUNT', KEYS[2], '(' .. now, '+inf')
local dr, dayMs = open(f[7], f[8])
local mr, monthMs = open(f[10], f[11])
local dm = dayMs > 0 and (tonumber(f[9]) or 0) or 0
local mm = monthMs > 0 and (tonumber(f[12]) or 0) or 0
return { rate, rateMs, burst, burstMs, used, usedMs, leases, dr, dm, dayMs, mr, mm, monthMs }
