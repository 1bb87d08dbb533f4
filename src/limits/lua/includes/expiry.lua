-- The key's expiry `x` covers every end and deadline in it. Raised only when something
-- outlives it, and then with EXPIRY_SLACK_MS to spare, so a steady client's decisions
-- move it (one PEXPIREAT) about once a minute, not on every call. nil: unchanged.
local EXPIRY_SLACK_MS = 60000
local function expiry(x, need)
  if need > x then return need + EXPIRY_SLACK_MS end
  return nil
end
