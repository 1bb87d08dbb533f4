--[[
  After runs: give back each lease and charge the run's worker time to the budget window.
  Releasing a lease that expired or was already given back does nothing, so a release
  retried after an outage (src/limits/admission.ts) is safe.

  Input:
    KEYS[2i-1]  budget key of release i
    KEYS[2i]    slot key of release i (a sorted set of leases)
    ARGV[3i-2]  chargedMs: worker time to charge (0: none)
    ARGV[3i-1]  windowMs: the budget window, set when the charge opens it
    ARGV[3i]    leaseId
  Output:
    1
]]
for i = 1, #KEYS, 2 do
  local a = (i - 1) / 2 * 3
  redis.call('ZREM', KEYS[i + 1], ARGV[a + 3])
  if redis.call('ZCARD', KEYS[i + 1]) == 0 then redis.call('DEL', KEYS[i + 1]) end
  local ms = tonumber(ARGV[a + 1])
  if ms > 0 then
    local total = redis.call('INCRBY', KEYS[i], ms)
    if total == ms or redis.call('PTTL', KEYS[i]) < 0 then redis.call('PEXPIRE', KEYS[i], ARGV[a + 2]) end
  end
end
return 1
