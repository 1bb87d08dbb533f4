// The limiter's Lua scripts (each runs atomically in Redis); src/limits/redis-client.ts defines them as commands.

/**
 * One client's admission, the part the admission and check scripts share: the budget is
 * read, then a slot taken unless the budget is spent. Returns used, its PTTL, and the
 * in-flight count (-1 at the cap, nothing taken; 0 when the budget is spent).
 */
const ADMIT_ONE_LUA = `
local function admit(budgetKey, slotKey, budgetMs, cap, slotTtlMs)
  local used = tonumber(redis.call('GET', budgetKey) or '0')
  local pttl = redis.call('PTTL', budgetKey)
  local n = 0
  if used < tonumber(budgetMs) then
    n = redis.call('INCR', slotKey)
    redis.call('PEXPIRE', slotKey, slotTtlMs)
    if n > tonumber(cap) then
      redis.call('DECR', slotKey)
      n = -1
    end
  end
  return used, pttl, n
end
`;

/**
 * Budget checks and per-client concurrency slots of several requests in one call (the
 * waiting lines' retries, and every admission on a Redis Cluster).
 * KEYS: pairs of (budget, in-flight). ARGV: per pair budgetMs, maxInFlight, slotTtlMs.
 * Returns per pair {budgetUsed, budgetPttl, inFlight}.
 */
export const ADMIT_LUA = `${ADMIT_ONE_LUA}
local out = {}
for i = 1, #KEYS, 2 do
  local a = (i - 1) / 2 * 3
  local used, pttl, n = admit(KEYS[i], KEYS[i + 1], ARGV[a + 1], ARGV[a + 2], ARGV[a + 3])
  out[#out + 1] = used
  out[#out + 1] = pttl
  out[#out + 1] = n
end
return out`;

/**
 * Rate limit and admission of several requests in one call. The rate limit is
 * rate-limiter-flexible's, step for step, on its own keys: RateLimiterRedis's fixed-window
 * script (`count` below), main counter first and, past its limit, the burst counter, as
 * its BurstyRateLimiter does. The library sends one script call per request; no library
 * batches many clients' checks, so this one call per turn is written here, and
 * src/limits/shared-check.test.ts checks it against the library on the same keys. A run
 * the rate limit refuses takes no slot.
 * KEYS: per request (main counter, burst counter, budget, in-flight).
 * ARGV: per request limit, burst, windowSec, admit (1/0), budgetMs, maxInFlight, slotTtlMs.
 * Returns per request {consumed, msBeforeNext, allowed, budgetUsed, budgetPttl, inFlight}.
 */
export const CHECK_LUA = `${ADMIT_ONE_LUA}
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
local out = {}
for i = 1, #KEYS, 4 do
  local a = (i - 1) / 4 * 7
  local consumed, ttl = count(KEYS[i], ARGV[a + 3])
  local allowed = 1
  if consumed > tonumber(ARGV[a + 1]) then
    local b, bttl = count(KEYS[i + 1], ARGV[a + 3])
    if bttl < ttl then ttl = bttl end
    if b > tonumber(ARGV[a + 2]) then allowed = 0 end
  end
  local used, pttl, n = 0, -2, 0
  if allowed == 1 and ARGV[a + 4] == '1' then
    used, pttl, n = admit(KEYS[i + 2], KEYS[i + 3], ARGV[a + 5], ARGV[a + 6], ARGV[a + 7])
  end
  out[#out + 1] = consumed
  out[#out + 1] = ttl
  out[#out + 1] = allowed
  out[#out + 1] = used
  out[#out + 1] = pttl
  out[#out + 1] = n
end
return out`;

/**
 * After runs: free each slot and charge its worker time to the budget window.
 * KEYS: pairs of (budget, in-flight). ARGV: per pair chargedMs, windowMs.
 */
export const RELEASE_LUA = `
for i = 1, #KEYS, 2 do
  local a = (i - 1) / 2 * 2
  local n = redis.call('DECR', KEYS[i + 1])
  if n <= 0 then redis.call('DEL', KEYS[i + 1]) end
  local ms = tonumber(ARGV[a + 1])
  if ms > 0 then
    local total = redis.call('INCRBY', KEYS[i], ms)
    if total == ms or redis.call('PTTL', KEYS[i]) < 0 then redis.call('PEXPIRE', KEYS[i], ARGV[a + 2]) end
  end
end
return 1`;
