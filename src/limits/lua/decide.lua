--[[
  Rate limit and admission of several decisions in one call: the steps of
  src/limits/decide.ts, field for field (src/limits/stores.test.ts drives both alike). Every
  counter of one client's decision on one tool is a field of one hash, so a call names only
  declared keys: on a Redis Cluster the caller sends the decisions of one hash slot per call.

  Fields: c<tier>/e<tier> rate counter and window end, b<tier>/f<tier> burst counter and end,
  u/v budget used and window end, l<leaseId> a lease's deadline, x the key's expiry.

  Input:
    KEYS[i]       the client's key for the tool of decision i (<prefix>lim:{<toolId>:<client>})
    ARGV[1]       now in ms (0: Redis server time)
    ARGV[2]       P, the number of policies
    then P policies of 7: tier, limit, burst, windowMs, budgetMs, cap, leaseMs
    then per decision 4: policy index (from 0), points (0: no rate count), admit (1/0), leaseId
  Output:
    per decision: consumed, msBeforeNext, allowed (1/0), budgetUsed, budgetPttl, leases
    (leases -1 at the cap, 0 when the budget is spent; 0, -2, 0 without the admission)
]]
-- @include now

local first = 3 + tonumber(ARGV[2]) * 7
local out = {}
for i = 1, #KEYS do
  local key = KEYS[i]
  local r = first + (i - 1) * 4
  local p = 3 + tonumber(ARGV[r]) * 7
  local tier = ARGV[p]
  local windowMs = tonumber(ARGV[p + 3])
  local points = tonumber(ARGV[r + 1])
  local flat = redis.call('HGETALL', key)
  local h = {}
  for j = 1, #flat, 2 do h[flat[j]] = tonumber(flat[j + 1]) end
  local set = {}
  local x = h['x'] or 0
  local function count(c, e)
    local n, ends = h[c] or 0, h[e] or 0
    if ends <= now then
      n = 0
      ends = now + windowMs
      set[#set + 1] = e
      set[#set + 1] = ends
      if ends > x then x = ends end
    end
    n = n + points
    set[#set + 1] = c
    set[#set + 1] = n
    return n, ends - now
  end

  local consumed, ttl, allowed = 0, 0, 1
  if points > 0 then
    consumed, ttl = count('c' .. tier, 'e' .. tier)
    if consumed > tonumber(ARGV[p + 1]) then
      local b, bttl = count('b' .. tier, 'f' .. tier)
      if bttl < ttl then ttl = bttl end
      if b > tonumber(ARGV[p + 2]) then allowed = 0 end
    end
  end

  local used, pttl, n = 0, -2, 0
  if allowed == 1 and ARGV[r + 2] == '1' then
    local ends = h['v'] or 0
    if ends > now then
      used = h['u'] or 0
      pttl = ends - now
    end
    if used < tonumber(ARGV[p + 4]) then
      local expired = {}
      for field, deadline in pairs(h) do
        if string.sub(field, 1, 1) == 'l' then
          if deadline <= now then expired[#expired + 1] = field else n = n + 1 end
        end
      end
      if #expired > 0 then redis.call('HDEL', key, unpack(expired)) end
      if n >= tonumber(ARGV[p + 5]) then
        n = -1
      else
        local deadline = now + tonumber(ARGV[p + 6])
        set[#set + 1] = 'l' .. ARGV[r + 3]
        set[#set + 1] = deadline
        if deadline > x then x = deadline end
        n = n + 1
      end
    end
  end

  local grew = x > (h['x'] or 0)
  if grew then
    set[#set + 1] = 'x'
    set[#set + 1] = x
  end
  if #set > 0 then redis.call('HSET', key, unpack(set)) end
  -- After HSET: PEXPIREAT on a key not yet written does nothing.
  if grew then redis.call('PEXPIREAT', key, x) end
  out[#out + 1] = consumed
  out[#out + 1] = ttl
  out[#out + 1] = allowed
  out[#out + 1] = used
  out[#out + 1] = pttl
  out[#out + 1] = n
end
return out
