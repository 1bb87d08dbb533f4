--[[
  Rate limit and admission of several decisions in one call: the steps of
  src/limits/decide.ts, field for field, in order (src/limits/stores.test.ts drives both
  alike). One client's decisions on one tool use two keys of one hash slot (a Redis Cluster
  takes a call whose keys share a slot): a small hash of counters and a sorted set of leases.
  Decisions on the same key within a call are applied in order to one copy of its counters,
  read once and written once, and their new leases added with one ZADD: a turn's many runs
  of one client cost Redis about what one costs.

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

-- Each key's state in this call: its counters (read once), what changed, its leases.
local states, order = {}, {}
local function stateOf(key, leases)
  local S = states[key]
  if S then return S end
  local h = {}
  local flat = redis.call('HGETALL', key)
  for j = 1, #flat, 2 do h[flat[j]] = tonumber(flat[j + 1]) end
  S = { key = key, leases = leases, h = h, dirty = {}, card = nil, adds = {}, lx = nil }
  states[key] = S
  order[#order + 1] = S
  return S
end
local function put(S, field, value)
  S.h[field] = value
  S.dirty[field] = true
end

local first = 3 + tonumber(ARGV[2]) * 7
local out = {}
for i = 1, #KEYS / 2 do
  local S = stateOf(KEYS[2 * i - 1], KEYS[2 * i])
  local h = S.h
  local r = first + (i - 1) * 4
  local P = pol[tonumber(ARGV[r])]
  local points = tonumber(ARGV[r + 1])
  local need = 0
  local function count(c, e)
    local n, ends = h[c] or 0, h[e] or 0
    if ends <= now then
      n = 0
      ends = now + P.windowMs
      put(S, e, ends)
      if ends > need then need = ends end
    end
    n = n + points
    put(S, c, n)
    return n, ends - now
  end

  local consumed, ttl, allowed = 0, 0, 1
  if points > 0 then
    consumed, ttl = count(P.cn, P.en)
    if consumed > P.limit then
      local b, bttl = count(P.bn, P.fn)
      if bttl < ttl then ttl = bttl end
      if b > P.burst then allowed = 0 end
    end
  end

  local used, pttl, n = 0, -2, 0
  local created = false
  if allowed == 1 and ARGV[r + 2] == '1' then
    local ends = h['v'] or 0
    if ends > now then
      used = h['u'] or 0
      pttl = ends - now
    end
    if used < P.budgetMs then
      if S.card == nil then S.card = redis.call('ZCARD', S.leases) end
      n = S.card
      if n >= P.cap then
        redis.call('ZREMRANGEBYSCORE', S.leases, '-inf', now)
        S.card = redis.call('ZCARD', S.leases) + #S.adds / 2
        n = S.card
      end
      if n >= P.cap then
        n = -1
      else
        local deadline = now + P.leaseMs
        S.adds[#S.adds + 1] = deadline
        S.adds[#S.adds + 1] = ARGV[r + 3]
        created = n == 0
        n = n + 1
        S.card = n
        if deadline > need then need = deadline end
      end
    end
  end

  local x = h['x'] or 0
  local grown = expiry(x, need)
  if grown then put(S, 'x', grown) end
  if grown or created then S.lx = grown or x end
  out[#out + 1] = consumed
  out[#out + 1] = ttl
  out[#out + 1] = allowed
  out[#out + 1] = used
  out[#out + 1] = pttl
  out[#out + 1] = n
end

-- One write per key: its changed counters, its new leases, their expiries.
for _, S in ipairs(order) do
  local set = {}
  for field in pairs(S.dirty) do
    set[#set + 1] = field
    set[#set + 1] = S.h[field]
  end
  if #set > 0 then redis.call('HSET', S.key, unpack(set)) end
  -- After the writes: PEXPIREAT on a key not yet written does nothing.
  if S.dirty['x'] then redis.call('PEXPIREAT', S.key, S.h['x']) end
  if #S.adds > 0 then redis.call('ZADD', S.leases, unpack(S.adds)) end
  if S.lx then redis.call('PEXPIREAT', S.leases, S.lx) end
end
return out
