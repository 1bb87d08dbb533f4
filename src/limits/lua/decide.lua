--[[
  Rate limit and admission of several decisions in one call: the steps of
  src/limits/decide.ts, field for field, in order (src/limits/stores.test.ts drives both
  alike). One client's decisions on one tool use two keys of one hash slot (a Redis Cluster
  takes a call whose keys share a slot): a small hash of counters and a sorted set of leases.
  Decisions on the same key within a call are applied in order to one copy of its counters,
  read once and written once, and their new leases added with one ZADD: a turn's many runs
  of one client cost Redis about what one costs.

  Counters: c<tier>/e<tier> rate counter and window end, b<tier>/f<tier> burst counter and
  end, u/v budget used and window end, x the keys' expiry; quotas (in the tool's counters for
  a quota per tool, in the client's quota hash for one per key): dr/dm/de runs, worker ms and
  end of the UTC day, mr/mm/me of the UTC month. Leases: member the lease id, score its
  deadline; counted with ZCARD, pruned (those past their deadline) only at the cap.

  Input:
    KEYS[3i-2]    the counters of decision i (<prefix>lim:{<client>}:<toolId>)
    KEYS[3i-1]    its leases (<prefix>lim:{<client>}:<toolId>:l)
    KEYS[3i]      the client's quota hash (<prefix>lim:{<client>}:@quota)
    ARGV[1]       now in ms (0: Redis server time)
    ARGV[2]       P, the number of policies
    then P policies of 15: tier, limit, burst, windowMs, budgetMs, cap, leaseMs, then the
      8 quotas (-1: none): per tool runs and ms a day, runs and ms a month, then per key alike
    then per decision 4: policy index (from 0), points (0: no rate count), admit (1/0), leaseId
  Output:
    per decision 10: consumed, msBeforeNext, allowed (1/0), budgetUsed, budgetPttl, leases
    (leases -1 at the cap, 0 when the budget or a quota is spent; 0, -2, 0 without the
    admission), then the quotas: state (0 none applies, 1 within, 2 one is spent), the index
    of the quota spent or else of the most used, its use and the ms to its window's end
]]
-- @include now
-- @include expiry
-- @include calendar

local QUSED = { [0] = 'dr', 'dm', 'mr', 'mm' }
local QEND = { [0] = 'de', 'de', 'me', 'me' }

-- The policies, read once per call: each decision names one by its index.
local pol = {}
for k = 0, tonumber(ARGV[2]) - 1 do
  local p = 3 + k * 15
  local tier = ARGV[p]
  local q, tq, kq = {}, false, false
  for j = 0, 7 do
    q[j] = tonumber(ARGV[p + 7 + j])
    if q[j] >= 0 then
      if j < 4 then tq = true else kq = true end
    end
  end
  pol[k] = {
    cn = 'c' .. tier, en = 'e' .. tier, bn = 'b' .. tier, fn = 'f' .. tier,
    limit = tonumber(ARGV[p + 1]), burst = tonumber(ARGV[p + 2]), windowMs = tonumber(ARGV[p + 3]),
    budgetMs = tonumber(ARGV[p + 4]), cap = tonumber(ARGV[p + 5]), leaseMs = tonumber(ARGV[p + 6]),
    q = q, tq = tq, kq = kq,
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

-- A quota window that has ended starts again, ending with its UTC day or month.
local function roll(S, dayEnd, monthEnd)
  if (S.h['de'] or 0) <= now then
    put(S, 'dr', 0)
    put(S, 'dm', 0)
    put(S, 'de', dayEnd)
  end
  if (S.h['me'] or 0) <= now then
    put(S, 'mr', 0)
    put(S, 'mm', 0)
    put(S, 'me', monthEnd)
  end
end

local first = 3 + tonumber(ARGV[2]) * 15
local out = {}
for i = 1, #KEYS / 3 do
  local S = stateOf(KEYS[3 * i - 2], KEYS[3 * i - 1])
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
  local qs, qi, qused, qms = 0, -1, 0, 0
  local Q = nil
  local admit = allowed == 1 and ARGV[r + 2] == '1'
  if admit and (P.tq or P.kq) then
    local monthEnd = monthEndOf(now)
    if P.tq then
      roll(S, dayEndOf(now), monthEnd)
      if monthEnd > need then need = monthEnd end
    end
    if P.kq then
      Q = stateOf(KEYS[3 * i], nil)
      roll(Q, dayEndOf(now), monthEnd)
      local grown = expiry(Q.h['x'] or 0, monthEnd)
      if grown then put(Q, 'x', grown) end
    end
    qs = 1
    for j = 0, 7 do
      local H = j < 4 and S.h or (Q and Q.h)
      if P.q[j] >= 0 and H[QUSED[j % 4]] >= P.q[j] then
        qs, qi, qused, qms = 2, j, H[QUSED[j % 4]], H[QEND[j % 4]] - now
        break
      end
    end
  end
  if admit and qs ~= 2 then
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
        -- A quota counts each admitted run.
        if P.tq then
          put(S, 'dr', h['dr'] + 1)
          put(S, 'mr', h['mr'] + 1)
        end
        if Q then
          put(Q, 'dr', Q.h['dr'] + 1)
          put(Q, 'mr', Q.h['mr'] + 1)
        end
      end
    end
  end
  if qs == 1 then
    -- The most used quota (of what it allows), for the operator's gauge of tiers near theirs.
    local best = -1
    for j = 0, 7 do
      local H = j < 4 and S.h or (Q and Q.h)
      if P.q[j] >= 0 then
        local u = H[QUSED[j % 4]]
        if u / P.q[j] > best then
          best = u / P.q[j]
          qi, qused, qms = j, u, H[QEND[j % 4]] - now
        end
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
  out[#out + 1] = qs
  out[#out + 1] = qi
  out[#out + 1] = qused
  out[#out + 1] = qms
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
