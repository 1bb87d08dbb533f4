--[[
  One client's admission, shared by admit.lua and check.lua: the budget is read, then a
  lease taken unless the budget is spent or the client is at its cap.

  The slot key is a sorted set of leases: member the lease id, score its deadline (Redis
  server time, ms). Leases past their deadline are pruned first, so a lease whose release
  never arrived (an instance died, a failover lost the write) frees itself at its deadline;
  a refused attempt writes nothing, and an admitted one only ever extends the key's TTL to
  its own deadline, so no attempt renews another run's lease.

  Returns used, the budget key's PTTL, and the leases held after this one (-1 at the cap,
  nothing taken; 0 when the budget is spent).
]]
-- Redis before 7 replicates scripts verbatim unless told: TIME must not decide writes there.
if redis.replicate_commands then redis.replicate_commands() end

local function admitLease(budgetKey, slotKey, budgetMs, cap, leaseMs, leaseId)
  local used = tonumber(redis.call('GET', budgetKey) or '0')
  local pttl = redis.call('PTTL', budgetKey)
  local n = 0
  if used < tonumber(budgetMs) then
    local t = redis.call('TIME')
    local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
    redis.call('ZREMRANGEBYSCORE', slotKey, '-inf', now)
    n = redis.call('ZCARD', slotKey)
    if n >= tonumber(cap) then
      n = -1
    else
      leaseMs = tonumber(leaseMs)
      redis.call('ZADD', slotKey, now + leaseMs, leaseId)
      n = n + 1
      if redis.call('PTTL', slotKey) < leaseMs then redis.call('PEXPIRE', slotKey, leaseMs) end
    end
  end
  return used, pttl, n
end
