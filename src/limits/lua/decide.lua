--[[
  Rate limit and admission of several decisions in one call: what the steps of
  src/limits/decide.ts give, decision after decision, field for field
  (src/limits/stores.test.ts drives both alike). One client's decisions on one tool use two keys of one hash slot (a Redis Cluster
  takes a call whose keys share a slot): a small hash of counters and a sorted set of leases.
  The hub sends the decisions of a call in groups: consecutive decisions alike (one client,
  tool, policy, points and admission) are one group, worked out at once; a policy with quotas
  has groups of one (each admitted run moves its quota counts). Counters are read once per key
  and written once, and a call's new leases added with one ZADD (a prune at the cap writes
  those taken so far first): a turn's many runs of one client cost Redis about what one costs.

  Counters: c<tier>/e<tier> rate counter and window end, b<tier>/f<tier> burst counter and
  end, u/v budget used and window end, x the keys' expiry; quotas (in the tool's counters for
  a quota per tool, in the client's quota hash for one per key): dr/dm/de runs, worker ms and
  end of the UTC day, mr/mm/me of the UTC month; with a quota of worker ms per key,
  r<leaseId>/t<leaseId> in the quota hash the ms a run in flight reserves and its lease's
  deadline (dropped past it); under one per tool, each live lease reserves reserveMs. Leases: member
  the lease id, score its deadline; counted with ZCARD, pruned (those past their deadline)
  only at the cap.

  Input: each client and tool named once, however many of the call's decisions are theirs.
    KEYS[3t-2]    the counters of key triple t (<prefix>lim:{<client>}:<toolId>)
    KEYS[3t-1]    its leases (<prefix>lim:{<client>}:<toolId>:l)
    KEYS[3t]      the client's quota hash (<prefix>lim:{<client>}:@quota)
    ARGV[1]       now in ms (0: Redis server time)
    ARGV[2]       valid until (Redis ms; 0: always): a call Redis takes later, after the hub
                  stopped waiting for it and counted in-process, does nothing
    ARGV[3]       P, the number of policies
    then P policies: tier, limit, burst, windowMs, budgetMs, cap, leaseMs, nq, then nq
      numbers: 0 where no quota applies, else 9: the 8 quotas (-1: none), per tool runs and
      ms a day, runs and ms a month, then per key alike, and the ms a run in flight reserves
      under a quota of ms (a policy without quotas spares Redis nine numbers)
    then per group: key triple t (from 1), policy index (from 0), points (0: no rate count),
      admit (1/0), k (its decisions), then with admit its k leaseIds
  Output: now (Redis ms), then per group 16 (src/limits/groups.ts turns them into a reply per
  decision), or now alone when the call came too late:
    n0, ttl: the rate counter before the group and the ms to its window's end;
    i0, bttl: the first decision over the limit (k + 1: none) and the ms to the burst
      window's end;
    allowed: how many decisions (the first ones) the rate allowed;
    spent (1: the budget is spent), used, pttl: the budget read for the admissions (used 0,
      pttl -2 with no window);
    c0, a0, c1, a1: leases held before the admissions and how many were taken, then, when the
      cap was reached, held after pruning those past their deadline and how many more;
    qs, qi, qused, qms: the quotas (a group of one): state (0 none applies or no admission
      asked, 1 within, 2 one is spent, 3 a quota of ms has no room beside what runs in
      flight reserve), the index of the quota spent or full or else of the most used, its use
      and the ms to its window's end;
    and, when qs is not 0, 10 more: runs today, ms today, runs this month, ms this month in
      the tool's counters, the same in the client's quota hash, then the ms reserved in each
]]
-- @include now
-- @include expiry
-- @include int
-- @include write
-- @include calendar

local validUntil = tonumber(ARGV[2])
if validUntil > 0 and now > validUntil then return { now } end

local QUSED = { [0] = 'dr', 'dm', 'mr', 'mm' }
local QEND = { [0] = 'de', 'de', 'me', 'me' }

-- The policies, read once per call: each decision names one by its index.
local pol = {}
local a = 4
for k = 0, tonumber(ARGV[3]) - 1 do
  local tier, nq = ARGV[a], tonumber(ARGV[a + 7])
  local P = {
    cn = 'c' .. tier, en = 'e' .. tier, bn = 'b' .. tier, fn = 'f' .. tier,
    limit = tonumber(ARGV[a + 1]), burst = tonumber(ARGV[a + 2]), windowMs = tonumber(ARGV[a + 3]),
    budgetMs = tonumber(ARGV[a + 4]), cap = tonumber(ARGV[a + 5]), leaseMs = tonumber(ARGV[a + 6]),
    q = nil, tq = false, kq = false, tms = false, kms = false, reserveMs = 0,
  }
  if nq > 0 then
    local q = {}
    for j = 0, 7 do
      q[j] = tonumber(ARGV[a + 8 + j])
      if q[j] >= 0 then
        if j < 4 then P.tq = true else P.kq = true end
        if j % 2 == 1 then
          if j < 4 then P.tms = true else P.kms = true end
        end
      end
    end
    P.q = q
    P.reserveMs = tonumber(ARGV[a + 16])
  end
  pol[k] = P
  a = a + 8 + nq
end

-- Each key's state in this call: its counters (read once), what changed, its leases.
local states, order = {}, {}
local function stateOf(key, leases)
  local S = states[key]
  if S then return S end
  local h = {}
  local flat = redis.call('HGETALL', key)
  for j = 1, #flat, 2 do h[flat[j]] = tonumber(flat[j + 1]) end
  S = { key = key, leases = leases, h = h, dirty = {}, card = nil, adds = {}, na = 0, lx = nil }
  states[key] = S
  order[#order + 1] = S
  return S
end
local function put(S, field, value)
  S.h[field] = value
  S.dirty[field] = true
end
-- The ms reserved by runs in flight (a quota of ms), those past their deadline dropped first.
local function reserved(S)
  local ms = 0
  for f, deadline in pairs(S.h) do
    if string.byte(f, 1) == 116 then -- 't'
      local r = 'r' .. string.sub(f, 2)
      if deadline <= now then
        put(S, f, nil)
        if S.h[r] ~= nil then put(S, r, nil) end
      else
        ms = ms + (S.h[r] or 0)
      end
    end
  end
  return ms
end
-- Leases for the decisions first..last of a group (their ids at ARGV[ids + j]), to be added.
local function take(S, d, ids, first, last)
  for j = first, last do
    S.adds[S.na + 1] = d
    S.adds[S.na + 2] = ARGV[ids + j]
    S.na = S.na + 2
  end
end
-- The call's new leases of a key into its sorted set (one ZADD).
local function flush(S)
  if S.na > 0 then
    redis.call('ZADD', S.leases, unpack(S.adds))
    S.adds, S.na = {}, 0
  end
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

-- A counter `c` and its window's end `e` before a group counts: the window started again
-- (from 0, ending windowMs from now) if it has ended, and then `need` raised to its end.
local function counter(S, c, e, windowMs, need)
  local n, ends = S.h[c] or 0, S.h[e] or 0
  if ends <= now then
    n, ends = 0, now + windowMs
    put(S, e, ends)
    if ends > need then need = ends end
  end
  return n, ends, need
end

local out, o = { now }, 1
while a <= #ARGV do
  local t = 3 * tonumber(ARGV[a])
  local S = stateOf(KEYS[t - 2], KEYS[t - 1])
  local h = S.h
  local P = pol[tonumber(ARGV[a + 1])]
  local points = tonumber(ARGV[a + 2])
  local asked = ARGV[a + 3] == '1'
  local k = tonumber(ARGV[a + 4])
  local ids = a + 5
  a = asked and ids + k or ids
  local need = 0

  -- The rate limit: every decision counts (refused ones too); those past `limit` count
  -- against the burst as well, and go while it lasts.
  local n0, ttl, i0, b0, bttl, allowed = 0, 0, k + 1, 0, 0, k
  if points > 0 then
    local ends
    n0, ends, need = counter(S, P.cn, P.en, P.windowMs, need)
    ttl = ends - now
    put(S, P.cn, n0 + k * points)
    if n0 + k * points > P.limit then
      i0 = math.max(1, math.floor((P.limit - n0) / points) + 1)
      b0, ends, need = counter(S, P.bn, P.fn, P.windowMs, need)
      bttl = ends - now
      put(S, P.bn, b0 + (k - i0 + 1) * points)
      allowed = math.min(k, i0 - 1 + math.max(0, math.floor((P.burst - b0) / points)))
    end
  end

  local spent, used, pttl, c0, a0, c1, a1 = 0, 0, -2, 0, 0, 0, 0
  local created = false
  local qs, qi, qused, qms = 0, -1, 0, 0
  local Q = nil
  local rt, rk = 0, 0
  local admit = asked and allowed > 0
  if admit and (P.tq or P.kq) then
    local monthEnd = monthEndOf(now)
    if P.tq then
      roll(S, dayEndOf(now), monthEnd)
      if monthEnd > need then need = monthEnd end
      -- Under the tool's quota each of the client's leases of the tool reserves reserveMs
      -- (those this call took first go in, to be counted).
      if P.tms then
        flush(S)
        rt = redis.call('ZCOUNT', S.leases, '(' .. now, '+inf') * P.reserveMs
      end
    end
    if P.kq then
      Q = stateOf(KEYS[t], nil)
      roll(Q, dayEndOf(now), monthEnd)
      local grown = expiry(Q.h['x'] or 0, monthEnd)
      if grown then put(Q, 'x', grown) end
      if P.kms then rk = reserved(Q) end
    end
    qs = 1
    for j = 0, 7 do
      local H = j < 4 and S.h or (Q and Q.h)
      if P.q[j] >= 0 and H[QUSED[j % 4]] >= P.q[j] then
        qs, qi, qused, qms = 2, j, H[QUSED[j % 4]], H[QEND[j % 4]] - now
        break
      end
    end
    -- Worker ms are charged when a run ends: a quota of ms admits a run only while what is
    -- used and what the runs in flight reserve leave room, so the last one passes it by one run.
    if qs == 1 then
      for j = 1, 7, 2 do
        local H = j < 4 and S.h or (Q and Q.h)
        if P.q[j] >= 0 and H[QUSED[j % 4]] + (j < 4 and rt or rk) >= P.q[j] then
          qs, qi, qused, qms = 3, j, H[QUSED[j % 4]], H[QEND[j % 4]] - now
          break
        end
      end
    end
  end
  if admit and qs < 2 then
    local ends = h['v'] or 0
    if ends > now then
      used = h['u'] or 0
      pttl = ends - now
    end
    if used >= P.budgetMs then
      spent = 1
    else
      -- Leases while the cap allows; at the cap, those past their deadline are pruned once
      -- (pruning again in this call would find no more: `now` is one for the call).
      if S.card == nil then S.card = redis.call('ZCARD', S.leases) end
      local deadline = now + P.leaseMs
      local d = int(deadline)
      c0 = S.card
      a0 = math.min(allowed, math.max(0, P.cap - c0))
      take(S, d, ids, 0, a0 - 1)
      S.card = c0 + a0
      if a0 < allowed then
        -- The leases already taken in this call go in first: a prune that empties the set
        -- deletes the key, and a ZADD after it would make one without an expiry.
        flush(S)
        redis.call('ZREMRANGEBYSCORE', S.leases, '-inf', now)
        c1 = redis.call('ZCARD', S.leases)
        a1 = math.min(allowed - a0, math.max(0, P.cap - c1))
        take(S, d, ids, a0, a0 + a1 - 1)
        S.card = c1 + a1
      end
      created = (c0 == 0 and a0 > 0) or (c1 == 0 and a1 > 0)
      if a0 + a1 > 0 then
        if deadline > need then need = deadline end
        -- A quota counts each admitted run (a group of one), and a quota of ms holds its
        -- reservation.
        local id = ARGV[ids]
        if P.tq then
          put(S, 'dr', h['dr'] + 1)
          put(S, 'mr', h['mr'] + 1)
        end
        if Q then
          put(Q, 'dr', Q.h['dr'] + 1)
          put(Q, 'mr', Q.h['mr'] + 1)
          if P.kms then
            put(Q, 'r' .. id, P.reserveMs)
            put(Q, 't' .. id, deadline)
          end
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
  out[o + 1], out[o + 2], out[o + 3], out[o + 4], out[o + 5] = n0, ttl, i0, bttl, allowed
  out[o + 6], out[o + 7], out[o + 8], out[o + 9], out[o + 10], out[o + 11] = spent, used, pttl, c0, a0, c1
  out[o + 12], out[o + 13], out[o + 14], out[o + 15], out[o + 16] = a1, qs, qi, qused, qms
  o = o + 16
  if qs ~= 0 then
    local H = Q and Q.h or {}
    out[o + 1], out[o + 2], out[o + 3], out[o + 4] = h['dr'] or 0, h['dm'] or 0, h['mr'] or 0, h['mm'] or 0
    out[o + 5], out[o + 6], out[o + 7], out[o + 8] = H['dr'] or 0, H['dm'] or 0, H['mr'] or 0, H['mm'] or 0
    out[o + 9], out[o + 10] = rt, rk
    o = o + 10
  end
end

-- One write per key: its changed counters (those dropped deleted), its new leases, their expiries.
for _, S in ipairs(order) do
  writeHash(S.key, S.h, S.dirty)
  flush(S)
  if S.lx then redis.call('PEXPIREAT', S.leases, S.lx) end
end
return out
