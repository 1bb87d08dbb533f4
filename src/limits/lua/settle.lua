--[[
  What an instance counted on its in-process insurance while Redis was away, added when Redis
  answers again (docs/architecture.md, "The insurance"): the steps of settle() in
  src/limits/settle.ts. A count whose window has ended since is dropped; one whose window
  Redis has not open opens it with what the instance had left of it (the UTC day or month as
  the calendar says). The runs admitted there and still in flight take their leases here (and
  their reservations), so their releases give them back here.

  Input:
    KEYS[3t-2]    the counters of key triple t (<prefix>lim:{<client>}:<toolId>)
    KEYS[3t-1]    its leases
    KEYS[3t]      the client's quota hash
    ARGV[1]       now in ms (0: Redis server time)
    ARGV[2]       valid until (Redis ms; 0: always): a call Redis takes too late does nothing
    then per key triple: t (from 1), the settlement's id (kept as k<id> in the counters for
      SETTLED_KEEP_MS, src/limits/settle.ts: one sent again is not taken twice),
      nc, then nc counts: hash (1 the counters, 2 the quota hash), counter field, end field,
        delta, ms its window had left;
      nl, then nl leases: id, ms left to its deadline;
      nr, then nr reservations: hash, lease id, ms, ms left to its deadline
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
local SETTLED_KEEP_MS = 600000

local function load(key)
  local h = {}
  local flat = redis.call('HGETALL', key)
  for j = 1, #flat, 2 do h[flat[j]] = tonumber(flat[j + 1]) end
  return { key = key, h = h, dirty = {}, need = 0 }
end
local function put(H, field, value)
  H.h[field] = value
  H.dirty[field] = true
end
local function raise(H, ends)
  if ends > H.need then H.need = ends end
end

local a = 3
while a <= #ARGV do
  local t = 3 * tonumber(ARGV[a])
  local id = 'k' .. ARGV[a + 1]
  local hashes = {}
  local function hashOf(which)
    if not hashes[which] then hashes[which] = load(which == 1 and KEYS[t - 2] or KEYS[t]) end
    return hashes[which]
  end
  -- A settlement taken before is not taken twice; ids kept past their time are dropped.
  local C = hashOf(1)
  for f, untilMs in pairs(C.h) do
    if string.byte(f, 1) == 107 and untilMs <= now then put(C, f, nil) end -- 'k'
  end
  local apply = C.h[id] == nil
  if apply then
    put(C, id, now + SETTLED_KEEP_MS)
    raise(C, now + SETTLED_KEEP_MS)
  end
  local nc = tonumber(ARGV[a + 2])
  a = a + 3
  for _ = 1, nc do
    local which, c, e = tonumber(ARGV[a]), ARGV[a + 1], ARGV[a + 2]
    local delta, msLeft = tonumber(ARGV[a + 3]), tonumber(ARGV[a + 4])
    a = a + 5
    if apply and delta > 0 then
      local H = hashOf(which)
      local calendar = e == 'de' and dayEndOf(now) or (e == 'me' and monthEndOf(now) or 0)
      local ends = H.h[e] or 0
      if ends > now then
        put(H, c, (H.h[c] or 0) + delta)
        raise(H, ends)
      elseif msLeft > 0 then
        ends = calendar > 0 and calendar or now + msLeft
        -- A calendar window starts again with both of its counts (runs and ms) at 0.
        if e == 'de' then
          put(H, 'dr', 0)
          put(H, 'dm', 0)
        elseif e == 'me' then
          put(H, 'mr', 0)
          put(H, 'mm', 0)
        end
        put(H, c, delta)
        put(H, e, ends)
        raise(H, ends)
      end
    end
  end
  local nl = tonumber(ARGV[a])
  a = a + 1
  local created = false
  if apply and nl > 0 then
    if redis.call('EXISTS', KEYS[t - 1]) == 0 then created = true end
    local adds = {}
    for _ = 1, nl do
      local deadline = now + tonumber(ARGV[a + 1])
      adds[#adds + 1] = int(deadline)
      adds[#adds + 1] = ARGV[a]
      raise(C, deadline)
      a = a + 2
    end
    redis.call('ZADD', KEYS[t - 1], unpack(adds))
  else
    a = a + 2 * nl
  end
  local nr = tonumber(ARGV[a])
  a = a + 1
  for _ = 1, apply and nr or 0 do
    local H = hashOf(tonumber(ARGV[a]))
    local deadline = now + tonumber(ARGV[a + 3])
    put(H, 'r' .. ARGV[a + 1], tonumber(ARGV[a + 2]))
    put(H, 't' .. ARGV[a + 1], deadline)
    raise(H, deadline)
    a = a + 4
  end
  if not apply then a = a + 4 * nr end
  -- Each hash's expiry covers what it holds now; the leases' set expires with the counters.
  local grown = nil
  for which = 1, 2 do
    local H = hashes[which]
    if H then
      local x = expiry(H.h['x'] or 0, H.need)
      if x then
        put(H, 'x', x)
        if which == 1 then grown = x end
      end
      writeHash(H.key, H.h, H.dirty)
    end
  end
  if grown or created then
    redis.call('PEXPIREAT', KEYS[t - 1], grown or hashOf(1).h['x'])
  end
end
return 1
