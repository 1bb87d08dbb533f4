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
 *
 * The keys are built here from their parts (src/limits/keys.ts names them): a request
 * sends its client and the index of its policy, not four long key names and seven
 * numbers, and the bytes a turn writes to Redis fall by ~80 %. Redis allows a script to
 * name keys it was not given on a single instance (Sentinel included), which is the
 * only place this script runs; on a Redis Cluster the rate limit goes through the
 * library and the admission through ADMIT_LUA, with declared keys.
 * ARGV: prefix, P, then P policies of 8 (name, toolId, limit, burst, windowSec, budgetMs,
 * maxInFlight, slotTtlMs), then per request 3 (policy index from 0, admit 1/0, client).
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
local prefix = ARGV[1]
local first = 3 + tonumber(ARGV[2]) * 8
local out = {}
for r = first, #ARGV, 3 do
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
    used, pttl, n = admit(prefix .. 'budget:' .. tag, prefix .. 'inflight:' .. tag, ARGV[p + 5], ARGV[p + 6], ARGV[p + 7])
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
