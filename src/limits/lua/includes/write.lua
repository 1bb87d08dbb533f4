-- One write of a hash's changed fields: those set to nil deleted (HDEL), the rest set (HSET),
-- then its expiry when `x` changed (PEXPIREAT after the writes: on a key not yet written it
-- would do nothing). `h` the fields as they are now, `dirty` the names of those changed.
local function writeHash(key, h, dirty)
  local set, gone = {}, {}
  for field in pairs(dirty) do
    if h[field] == nil then
      gone[#gone + 1] = field
    else
      set[#set + 1] = field
      set[#set + 1] = int(h[field])
    end
  end
  if #gone > 0 then redis.call('HDEL', key, unpack(gone)) end
  if #set > 0 then redis.call('HSET', key, unpack(set)) end
  if dirty['x'] then redis.call('PEXPIREAT', key, h['x']) end
end
