--[[
  Rate limit and admission of several requests in one call, on a single Redis or Sentinel.

  The rate limit is rate-limiter-flexible's, step for step, on its own keys: RateLimiterRedis's
  fixed-window script (`count` below), main counter first and, past its limit, the burst
  counter, as its BurstyRateLimiter does. The library sends one script call per request; no
  library batches many clients' checks, so this one call per turn is the project's, and
  src/limits/shared-check.test.ts checks it against the library on the same keys. A run the
  rate limit refuses takes no lease.

  The keys are built here from their parts (src/limits/keys.ts names them, the same test
  checks they agree): a request sends its client and the index of its policy, not four long
  key names and seven numbers. Redis allows a script to name keys it was not given on a
  single instance only; on a Redis Cluster the rate limit goes through the library and the
  admission through admit.lua, with declared keys.

  Input:
    KEYS        none
    ARGV[1]     prefix
    ARGV[2]     P, the number of policies
    then P policies of 8: name, toolId, limit, burst, windowSec, budgetMs, maxInFlight, leaseMs
    then per request 4: policy index (from 0), admit (1/0), client, leaseId
  Output:
    per request: consumed, msBeforeNext, allowed (1/0), budgetUsed, budgetPttl, leases held
]]
-- @include admit-lease

local function count(key, win)
  redis.call('SET', key, 0, 'EX', win, 'NX')
  local consumed = redis.call('INCRBY', key, 1)
  local ttl = redis.call('PTTL', key)
  if ttl == -1 then
    redis.call('EXPIRE', key, win)
    ttl = 1000 * win
  end
  return consumed, ttl
end

local prefix = ARGV[1]
local first = 3 + tonumber(ARGV[2]) * 8
local out = {}
for r = first, #ARGV, 4 do
  local p = 3 + tonumber(ARGV[r]) * 8
  local name, tool, win, client = ARGV[p], ARGV[p + 1], ARGV[p + 4], ARGV[r + 2]
  local consumed, ttl = count(prefix .. 'rl:' .. name .. ':' .. client, win)
  local allowed = 1
  if consumed > tonumber(ARGV[p + 2]) then
    local b, bttl = count(prefix .. 'rlb:' .. name .. ':' .. client, win)
    if bttl < ttl then ttl = bttl end
    if b > tonumber(ARGV[p + 3]) then allowed = 0 end
  end
  local used, pttl, n = 0, -2, 0
  if allowed == 1 and ARGV[r + 1] == '1' then
    local tag = '{' .. tool .. ':' .. client .. '}'
    used, pttl, n = admitLease(prefix .. 'budget:' .. tag, prefix .. 'lease:' .. tag, ARGV[p + 5], ARGV[p + 6], ARGV[p + 7], ARGV[r + 3])
  end
  out[#out + 1] = consumed
  out[#out + 1] = ttl
  out[#out + 1] = allowed
  out[#out + 1] = used
  out[#out + 1] = pttl
  out[#out + 1] = n
end
return out
