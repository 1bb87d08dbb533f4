-- Marks a job cancelled unless it has finished (docs/api.md, "Jobs"): atomic with BullMQ's
-- own move to completed or failed, which sets finishedOn in the same hash.
-- KEYS[1] the job's hash (BullMQ's `<prefix>:jobs:<id>`)
-- ARGV[1] now, ms since the epoch
-- Returns -1: no such job; 0: it has finished; 1: cancelled now (or already).
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('HEXISTS', KEYS[1], 'finishedOn') == 1 then
  return redis.call('HEXISTS', KEYS[1], 'hubCancelledAt')
end
redis.call('HSETNX', KEYS[1], 'hubCancelledAt', ARGV[1])
return 1
