--[[
  After runs: give each lease back and charge the run's worker time to the budget window:
  the steps of release() in src/limits/decide.ts. Giving back a lease already given back or
  expired does nothing, so a release retried after an outage is safe.

  Input:
    KEYS[i]       the client's key for the tool of release i
    ARGV[1]       now in ms (0: Redis server time)
    then per release 3: leaseId, chargedMs (0: none), windowMs (the budget window)
  Output:
    1
]]
-- @include now

for i = 1, #KEYS do
  local key = KEYS[i]
  local a = 1 + (i - 1) * 3
  redis.call('HDEL', key, 'l' .. ARGV[a + 1])
  local ms = tonumber(ARGV[a + 2])
  if ms > 0 then
    local f = redis.call('HMGET', key, 'u', 'v', 'x')
    local used, ends, x = tonumber(f[1]) or 0, tonumber(f[2]) or 0, tonumber(f[3]) or 0
    if ends <= now then
      used = ms
      ends = now + tonumber(ARGV[a + 3])
    else
      used = used + ms
    end
    if ends > x then
      redis.call('HSET', key, 'u', used, 'v', ends, 'x', ends)
      redis.call('PEXPIREAT', key, ends)
    else
      redis.call('HSET', key, 'u', used, 'v', ends)
    end
  end
end
return 1
