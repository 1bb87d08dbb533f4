--[[
  After runs: give each lease back and charge the run's worker time to the budget window:
  the steps of release() in src/limits/decide.ts. Giving back a lease already given back or
  pruned does nothing, so a release retried after an outage is safe.

  Input:
    KEYS[2i-1]    the counters of release i
    KEYS[2i]      its leases
    ARGV[1]       now in ms (0: Redis server time)
    then per release 3: leaseId, chargedMs (0: none), windowMs (the budget window)
  Output:
    1
]]
-- @include now
-- @include expiry

for i = 1, #KEYS / 2 do
  local key = KEYS[2 * i - 1]
  local a = 2 + (i - 1) * 3
  redis.call('ZREM', KEYS[2 * i], ARGV[a])
  local ms = tonumber(ARGV[a + 1])
  if ms > 0 then
    local f = redis.call('HMGET', key, 'u', 'v', 'x')
    local used, ends = tonumber(f[1]) or 0, tonumber(f[2]) or 0
    local set
    if ends <= now then
      ends = now + tonumber(ARGV[a + 2])
      set = { 'u', ms, 'v', ends }
    else
      set = { 'u', used + ms }
    end
    local grown = expiry(tonumber(f[3]) or 0, ends)
    if grown then
      set[#set + 1] = 'x'
      set[#set + 1] = grown
    end
    redis.call('HSET', key, unpack(set))
    if grown then redis.call('PEXPIREAT', key, grown) end
  end
end
return 1
