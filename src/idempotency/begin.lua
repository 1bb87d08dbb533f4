-- Claims an Idempotency-Key for a request, or answers what the key holds
-- (docs/api.md, "Idempotency-Key"): one round trip, no gap between the read and the claim.
-- KEYS[1] the key's record (JSON: {"f": fingerprint, "a"?: answer})
-- ARGV[1] the pending record to claim it with; ARGV[2] how long the claim holds, ms
-- Returns the record found, or false when the key was free and is now claimed.
local found = redis.call('GET', KEYS[1])
if found then return found end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return false
