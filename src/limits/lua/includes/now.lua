-- `now`: ARGV[1] in ms, or Redis's own clock when it is 0 (the hub's: the instances' clocks
-- need not agree; the tests inject theirs).
local now = tonumber(ARGV[1])
if now == 0 then
  -- Redis before 7 replicates scripts verbatim unless told: TIME must not decide writes there.
  if redis.replicate_commands then redis.replicate_commands() end
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
