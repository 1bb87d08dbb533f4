--[[
  Moves the deadlines of leases of runs still in flight on: the steps of renew() in
  src/limits/renew.ts. A lease lives a short while unless its instance renews it, so one whose
  instance died or whose release a failover lost frees its slot soon (docs/architecture.md,
  "Leases"). A deadline only moves later; a lease no longer held (given back, or pruned past
  its deadline) is not made again (ZADD XX GT). A run's reservation under a quota of ms moves
  with it.

  Input:
    KEYS[3t-2]    the counters of key triple t
    KEYS[3t-1]    its leases
    KEYS[3t]      the client's quota hash
    ARGV[1]       now in ms (0: Redis server time)
    ARGV[2]       valid until (Redis ms; 0: always): a call Redis takes too late does nothing
    then per key triple: t (from 1), ms (the leases' new life from now), quotas (bits: 1 the
      reservations are in the counters, 2 in the quota hash), k, then the k lease ids
  Output:
    1, or 0 when the call came too late
]]
-- @include now
-- @include expiry
-- @include int
-- @include write

local validUntil = tonumber(ARGV[2])
if validUntil > 0 and now > validUntil then return 0 end

local function load(key)
  local h = {}
  local flat = redis.call('HGETALL', key)
  for j = 1, #flat, 2 do h[flat[j]] = tonumber(flat[j + 1]) end
  return { key = key, h = h, dirty = {} }
end
-- Raises a hash's expiry `x` to cover `ends`.
local function raise(H, ends)
  local x = expiry(H.h['x'] or 0, ends)
  if x then
    H.h['x'] = x
    H.dirty['x'] = true
  end
end

local a = 3
while a <= #ARGV do
  local t = 3 * tonumber(ARGV[a])
  local deadline = now + tonumber(ARGV[a + 1])
  local quotas = tonumber(ARGV[a + 2])
  local k = tonumber(ARGV[a + 3])
  local C, Q = nil, nil
  for j = a + 4, a + 3 + k do
    local id = ARGV[j]
    if redis.call('ZSCORE', KEYS[t - 1], id) then
      redis.call('ZADD', KEYS[t - 1], 'XX', 'GT', int(deadline), id)
      C = C or load(KEYS[t - 2])
      raise(C, deadline)
      for bit = 1, 2 do
        if (bit == 1 and quotas % 2 == 1) or (bit == 2 and quotas >= 2) then
          if bit == 2 then Q = Q or load(KEYS[t]) end
          local H = bit == 1 and C or Q
          local f = 't' .. id
          if H.h[f] then
            if deadline > H.h[f] then
              H.h[f] = deadline
              H.dirty[f] = true
            end
            raise(H, deadline)
          end
        end
      end
    end
  end
  a = a + 4 + k
  if C then
    writeHash(C.key, C.h, C.dirty)
    -- The leases' set expires with the counters (decide.lua keeps it so).
    if C.dirty['x'] then redis.call('PEXPIREAT', KEYS[t - 1], C.h['x']) end
  end
  if Q then writeHash(Q.key, Q.h, Q.dirty) end
end
return 1
