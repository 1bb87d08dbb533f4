--[[
  Budget checks and per-client leases of several requests in one call (the waiting lines'
  retries, and every admission on a Redis Cluster, where a call names one hash slot).

  Input:
    KEYS[2i-1]  budget key of request i   (<prefix>budget:{<toolId>:<client>})
    KEYS[2i]    slot key of request i     (<prefix>lease:{<toolId>:<client>}, a sorted set)
    ARGV[4i-3]  budgetMs: the window's compute budget
    ARGV[4i-2]  maxInFlight: the client's cap
    ARGV[4i-1]  leaseMs: how long the lease lives unless released (the run's longest life)
    ARGV[4i]    leaseId: unique per admission
  Output:
    per request: budgetUsed, budgetPttl, leases held (-1 at the cap; 0 when the budget is spent)
]]
-- @include admit-lease

local out = {}
for i = 1, #KEYS, 2 do
  local a = (i - 1) / 2 * 4
  local used, pttl, n = admitLease(KEYS[i], KEYS[i + 1], ARGV[a + 1], ARGV[a + 2], ARGV[a + 3], ARGV[a + 4])
  out[#out + 1] = used
  out[#out + 1] = pttl
  out[#out + 1] = n
end
return out
