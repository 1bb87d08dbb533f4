--[[
  After runs: give each lease back and charge the run's worker time to the budget window:
  the steps of release() in src/limits/decide.ts, in order. Releases on the same key within
  a call share one ZREM and one read and write of its budget. Giving back a lease already
  given back or pruned does nothing, so a release retried after an outage is safe.

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

local states, order = {}, {}
for i = 1, #KEYS / 2 do
  local key = KEYS[2 * i - 1]
  local S = states[key]
  if not S then
    S = { key = key, leases = KEYS[2 * i], gone = {}, f = nil, dirty = false, grown = false }
    states[key] = S
    order[#order + 1] = S
  end
  local a = 2 + (i - 1) * 3
  S.gone[#S.gone + 1] = ARGV[a]
  local ms = tonumber(ARGV[a + 1])
  if ms > 0 then
    if not S.f then
      local f = redis.call('HMGET', key, 'u', 'v', 'x')
      S.f = { u = tonumber(f[1]) or 0, v = tonumber(f[2]) or 0, x = tonumber(f[3]) or 0 }
    end
    local f = S.f
    if f.v <= now then
      f.u = ms
      f.v = now + tonumber(ARGV[a + 2])
    else
      f.u = f.u + ms
    end
    local grown = expiry(f.x, f.v)
    if grown then
      f.x = grown
      S.grown = true
    end
    S.dirty = true
  end
end

for _, S in ipairs(order) do
  redis.call('ZREM', S.leases, unpack(S.gone))
  if S.dirty then
    local f = S.f
    -- The expiry moves only when the budget window outlives it (about once a minute).
    if S.grown then
      redis.call('HSET', S.key, 'u', f.u, 'v', f.v, 'x', f.x)
      redis.call('PEXPIREAT', S.key, f.x)
    else
      redis.call('HSET', S.key, 'u', f.u, 'v', f.v)
    end
  end
end
return 1
