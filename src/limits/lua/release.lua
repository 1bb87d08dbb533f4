--[[
  After runs: give each lease back and charge the run's worker time to the budget window and
  to the quotas that apply: the steps of release() in src/limits/decide.ts, in order.
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
    then per group: key triple t (from 1), k (its leases), chargedMs (their sum; 0: none),
      windowMs (the budget window), quotas (bits: 1 a quota per tool applies, 2 one per
      key), then the k leaseIds
  Output:
    1
]]
-- @include now
-- @include expiry
-- @include int
-- @include calendar

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

local a = 2
while a <= #ARGV do
  local t = 3 * tonumber(ARGV[a])
  local k = tonumber(ARGV[a + 1])
  local ms = tonumber(ARGV[a + 2])
  local quotas = tonumber(ARGV[a + 4])
  local S = stateOf(KEYS[t - 2])
  redis.call('ZREM', KEYS[t - 1], unpack(ARGV, a + 5, a + 4 + k))
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
    local set = {}
    for field in pairs(S.dirty) do
      set[#set + 1] = field
      set[#set + 1] = int(S.h[field])
    end
    redis.call('HSET', S.key, unpack(set))
    -- The expiry moves only when a window outlives it (about once a minute, or a month).
    if S.dirty['x'] then redis.call('PEXPIREAT', S.key, S.h['x']) end
  end
end
return 1
