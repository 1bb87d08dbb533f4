--[[
  Rate limit and admission of several decisions in one call: the steps of
  src/limits/decide.ts, field for field (src/limits/stores.test.ts drives both alike). One
  client's decisions on one tool use two keys of one hash slot (a Redis Cluster takes a call
  whose keys share a slot): a small hash of counters and a sorted set of leases.

  Counters: c<tier>/e<tier> rate counter and window end, b<tier>/f<tier> burst counter and
  end, u/v budget used and window end, x the keys' expiry. Leases: member the lease id, score
  its deadline; counted with ZCARD, pruned (those past their deadline) only at the cap.

  Input:
    KEYS[2i-1]    the counters of decision i (<prefix>lim:{<toolId>:<client>})
    KEYS[2i]      its leases (<prefix>lim:{<toolId>:<client>}:l)
    ARGV[1]       now in ms (0: Redis server time)
    ARGV[2]       P, the number of policies
    then P policies of 7: tier, limit, burst, windowMs, budgetMs, cap, leaseMs
    then per decision 4: policy index (from 0), points (0: no rate count), admit (1/0), leaseId
  Output:
    per decision: consumed, msBeforeNext, allowed (1/0), budgetUsed, budgetPttl, leases
    (leases -1 at the cap, 0 when the budget is spent; 0, -2, 0 without the admission)
]]
-- @include now
-- @include expiry

-- The policies, read once per call: each decision names one by its index.
local pol = {}
for k = 0, tonumber(ARGV[2]) - 1 do
  local p = 3 + k * 7
  local tier = ARGV[p]
  pol[k] = {
    cn = 'c' .. tier, en = 'e' .. tier, bn = 'b' .. tier, fn = 'f' .. tier,
    limit = tonumber(ARGV[p + 1]), burst = tonumber(ARGV[p + 2]), windowMs = tonumber(ARGV[p + 3]),
    budgetMs = tonumber(ARGV[p + 4]), cap = tonumber(ARGV[p + 5]), leaseMs = tonumber(ARGV[p + 6]),
  }
end

local first = 3 + tonumber(ARGV[2]) * 7
local out = {}
for i = 1, #KEYS / 2 do
  local key, leases = KEYS[2 * i - 1], KEYS[2 * i]
  local r = first + (i - 1) * 4
  local P = pol[tonumber(ARGV[r])]
  local points = tonumber(ARGV[r + 1])
  local h = redis.call('HMGET', key, P.cn, P.en, P.bn, P.fn, 'u', 'v', 'x')
  local set = {}
  local x = tonumber(h[7]) or 0
  local need = 0
  local function count(c, cv, e, ev)
    local n, ends = tonumber(cv) or 0, tonumber(ev) or 0
    if ends <= now then
      n = 0
      ends = now + P.windowMs
      set[#set + 1] = e
      set[#set + 1] = ends
      if ends > need then need = ends end
    end
    n = n + points
    set[#set + 1] = c
    set[#set + 1] = n
    return n, ends - now
  end

  local consumed, ttl, allowed = 0, 0, 1
  if points > 0 then
    consumed, ttl = count(P.cn, h[1], P.en, h[2])
    if consumed > P.limit then
      local b, bttl = count(P.bn, h[3], P.fn, h[4])
      if bttl < ttl then ttl = bttl end
      if b > P.burst then allowed = 0 end
    end
  end

  local used, pttl, n = 0, -2, 0
  local created = false
  if allowed == 1 and ARGV[r + 2] == '1' then
    local ends = tonumber(h[6]) or 0
    if ends > now then
      used = tonumber(h[5]) or 0
      pttl = ends - now
    end
    if used < P.budgetMs then
      n = redis.call('ZCARD', leases)
      if n >= P.cap then
        redis.call('ZREMRANGEBYSCORE', leases, '-inf', now)
        n = redis.call('ZCARD', leases)
      end
      if n >= P.cap then
        n = -1
      else
        local deadline = now + P.leaseMs
        redis.call('ZADD', leases, deadline, ARGV[r + 3])
        created = n == 0
        n = n + 1
        if deadline > need then need = deadline end
      end
    end
  end

  local grown = expiry(x, need)
  if grown then
    set[#set + 1] = 'x'
    set[#set + 1] = grown
  end
  if #set > 0 then redis.call('HSET', key, unpack(set)) end
  -- After the writes: PEXPIREAT on a key not yet written does nothing.
  if grown then redis.call('PEXPIREAT', key, grown) end
  if grown or created then redis.call('PEXPIREAT', leases, grown or x) end
  out[#out + 1] = consumed
  out[#out + 1] = ttl
  out[#out + 1] = allowed
  out[#out + 1] = used
  out[#out + 1] = pttl
  out[#out + 1] = n
end
return out
