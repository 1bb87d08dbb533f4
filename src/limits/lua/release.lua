--[[
  After runs: give each lease back (and its reservation under a quota of worker ms) and charge
  the run's worker time to the budget window and to the quotas that apply: the steps of
  release() in src/limits/decide.ts, in order.
  Releases on the same key within a call share one read and write of its counters, and a
  group's leases one ZREM. Giving back a lease already given back or pruned does nothing, so a release
  retried after an outage is safe.

  Input: the releases grouped by the hub (src/limits/groups.ts): those of one client and
  tool with the same budget window and quotas are one group, their worker time summed (a
  charge of the sum is the charges one after the other: the window restarts at most once, at
  the group's first, as `now` is one for the call).
    KEYS[3t-2]    the counters of key triple t
    KEYS[3t-1]    its leases
    KEYS[3t]      the client's quota hash
    ARGV[1]       now in ms (0: Redis server time)
    ARGV[2]       valid until (Redis ms; 0: always): a call Redis takes later, after the hub
                  stopped waiting for it and charged in-process, does nothing
    then per group: key triple t (from 1), k (its leases), chargedMs (their sum; 0: none),
      windowMs (the budget window), quotas (bits: 1 a quota per tool applies, 2 one per
      key), then the k leaseIds
  Output:
    1, or 0 when the call came too late
]]
-- @include now
-- @include expiry
-- @include int
-- @include write
-- @include calendar

local validUntil = tonumber(ARGV[2])
if validUntil > 0 and now > validUntil then return 0 end

local states, order = {}, {}
local function stateOf(key)
  local S = states[key]
  if S then return S end
  S = { key = key, h = nil, dirty = {}, any = false }
  states[key] = S
  order[#order + 1] = S
  return S
end
-- Counters are read once per key, and only when something is charged.
local function counters(S)
  if not S.h then
    S.h = {}
    local flat = redis.call('HGETALL', S.key)
    for j = 1, #flat, 2 do S.h[flat[j]] = tonumber(flat[j + 1]) end
  end
  return S.h
end
local function put(S, field, value)
  S.h[field] = value
  S.dirty[field] = true
  S.any = true
end
local function charge(S, ms, monthEnd)
  local h = counters(S)
  if (h['de'] or 0) <= now then
    put(S, 'dr', 0)
    put(S, 'dm', 0)
    put(S, 'de', dayEndOf(now))
  end
  if (h['me'] or 0) <= now then
    put(S, 'mr', 0)
    put(S, 'mm', 0)
    put(S, 'me', monthEnd)
  end
  put(S, 'dm', h['dm'] + ms)
  put(S, 'mm', h['mm'] + ms)
  local grown = expiry(h['x'] or 0, monthEnd)
  if grown then put(S, 'x', grown) end
end

-- A run's reservation under a key's quota of ms ends with it (HDEL of fields never set does
-- nothing); under a tool's, it ends with the lease.
local function unreserve(key, first, last)
  local fields = {}
  for j = first, last do
    fields[#fields + 1] = 'r' .. ARGV[j]
    fields[#fields + 1] = 't' .. ARGV[j]
  end
  redis.call('HDEL', key, unpack(fields))
end

local a = 3
while a <= #ARGV do
  local t = 3 * tonumber(ARGV[a])
  local k = tonumber(ARGV[a + 1])
  local ms = tonumber(ARGV[a + 2])
  local quotas = tonumber(ARGV[a + 4])
  local S = stateOf(KEYS[t - 2])
  redis.call('ZREM', KEYS[t - 1], unpack(ARGV, a + 5, a + 4 + k))
  if quotas >= 2 then unreserve(KEYS[t], a + 5, a + 4 + k) end
  if ms > 0 and quotas > 0 then
    local monthEnd = monthEndOf(now)
    if quotas % 2 == 1 then charge(S, ms, monthEnd) end
    if quotas >= 2 then charge(stateOf(KEYS[t]), ms, monthEnd) end
  end
  if ms > 0 then
    local h = counters(S)
    local v = h['v'] or 0
    if v <= now then
      v = now + tonumber(ARGV[a + 3])
      put(S, 'u', ms)
      put(S, 'v', v)
    else
      put(S, 'u', h['u'] + ms)
    end
    local grown = expiry(h['x'] or 0, v)
    if grown then put(S, 'x', grown) end
  end
  a = a + 5 + k
end

for _, S in ipairs(order) do
  if S.any then
    -- The expiry moves only when a window outlives it (about once a minute, or a month).
    writeHash(S.key, S.h, S.dirty)
  end
end
return 1
