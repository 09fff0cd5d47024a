/**
 * The redis store's writes, as Lua scripts: each runs whole in Redis, so the
 * counts every replica bounds the store by (responses and bytes, per owner
 * and in all) move with the entries they count, never apart.
 *
 * What they keep (redis-keys.ts names it): every response key in `index` and
 * in its owner's index, by the time it was made; its size in `sizes`; each
 * owner's bytes and responses in two sorted sets (who holds the most), and
 * the bytes in all. An entry counted is in `sizes`; forgetting one takes it
 * out of all of them at once. Expired entries are forgotten at the next put
 * (their size is still in `sizes`, which lives as long as the index).
 *
 * Both scripts take the same first keys and arguments. KEYS: the response,
 * the index, sizes, owner bytes, owner responses, the bytes in all, the
 * owner's index (the put: then the response's items). ARGV: the owner, the
 * response key stem and the owner index stem (to name another owner's index
 * and read an owner out of a response key).
 */
const COMMON = `
local INDEX, SIZES, OWNER_BYTES, OWNER_COUNTS, TOTAL, OWN_INDEX = KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7]
local OWNER, RESPONSE_STEM, INDEX_STEM = ARGV[1], ARGV[2], ARGV[3]

-- Owners hold no ':' (redis-keys.ts): a response key is the stem, the owner, ':', the id.
local function ownerOf(member)
  local rest = string.sub(member, #RESPONSE_STEM + 1)
  local colon = string.find(rest, ':', 1, true)
  return colon and string.sub(rest, 1, colon - 1) or ''
end

-- Takes a response key out of every index and count (the response itself is the caller's to delete).
local function forget(member, owner)
  redis.call('ZREM', INDEX, member)
  redis.call('ZREM', INDEX_STEM .. owner, member)
  local size = tonumber(redis.call('HGET', SIZES, member))
  if not size then return end
  redis.call('HDEL', SIZES, member)
  redis.call('DECRBY', TOTAL, size)
  redis.call('ZINCRBY', OWNER_BYTES, -size, owner)
  if tonumber(redis.call('ZINCRBY', OWNER_COUNTS, -1, owner)) <= 0 then
    redis.call('ZREM', OWNER_COUNTS, owner)
    redis.call('ZREM', OWNER_BYTES, owner)
  end
end
`;

/**
 * ARGV after the common three: the entry's JSON, its status, the max age in ms, the response id,
 * the statuses it may replace (space-separated, each between spaces; empty: any), its bytes,
 * maxResponses, maxBytes, maxResponsesPerKey, maxBytesPerKey. A replaced entry keeps its expiry and
 * its place; a cancelled one stays. Then: expired entries are forgotten; the owner, while over
 * either of its bounds, loses its own oldest; the store, while over either bound in all, loses the
 * oldest of the owner holding the most of it (of two holding as much, the one whose oldest is older).
 * Returns 1 when the entry was written, 0 when not.
 */
export const PUT_SCRIPT = `${COMMON}
local json, status, age, id, replacing = ARGV[4], ARGV[5], tonumber(ARGV[6]), ARGV[7], ARGV[8]
local size, maxResponses, maxBytes, perKey, perKeyBytes =
  tonumber(ARGV[9]), tonumber(ARGV[10]), tonumber(ARGV[11]), tonumber(ARGV[12]), tonumber(ARGV[13])
local ttl = redis.call('PTTL', KEYS[1])
local current = redis.call('HGET', KEYS[1], 'status')
if replacing ~= '' and (not current or not string.find(replacing, ' ' .. current .. ' ', 1, true)) then return 0 end
local fresh = ttl <= 0
if fresh then
  ttl = age
elseif current == 'cancelled' and status ~= 'cancelled' then
  return 0
end
redis.call('HSET', KEYS[1], 'entry', json, 'status', status)
redis.call('PEXPIRE', KEYS[1], ttl)
for i = 8, #KEYS do redis.call('SET', KEYS[i], id, 'PX', ttl) end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)

for _, member in ipairs(redis.call('ZRANGEBYSCORE', INDEX, '-inf', now - age)) do forget(member, ownerOf(member)) end

local counted = tonumber(redis.call('HGET', SIZES, KEYS[1]))
if fresh or not counted then
  -- A new entry (or one made again after it expired): counted afresh, at the young end.
  forget(KEYS[1], OWNER)
  redis.call('ZADD', INDEX, now, KEYS[1])
  redis.call('ZADD', OWN_INDEX, now, KEYS[1])
  redis.call('ZINCRBY', OWNER_COUNTS, 1, OWNER)
  redis.call('HSET', SIZES, KEYS[1], size)
  redis.call('INCRBY', TOTAL, size)
  redis.call('ZINCRBY', OWNER_BYTES, size, OWNER)
else
  local delta = size - counted
  redis.call('HSET', SIZES, KEYS[1], size)
  redis.call('INCRBY', TOTAL, delta)
  redis.call('ZINCRBY', OWNER_BYTES, delta, OWNER)
end

-- The owner's oldest response goes (with its item keys left to expire: they name nothing now).
local function dropOldest(owner)
  if not owner then return false end
  local oldest = redis.call('ZRANGE', INDEX_STEM .. owner, 0, 0)[1]
  if oldest then
    redis.call('DEL', oldest)
    forget(oldest, owner)
  else
    -- Counted, with no index left: nothing of it to drop.
    redis.call('ZREM', OWNER_COUNTS, owner)
    redis.call('ZREM', OWNER_BYTES, owner)
  end
  return true
end

local function largest(ranking)
  local top = redis.call('ZREVRANGE', ranking, 0, 0, 'WITHSCORES')
  if #top == 0 then return nil end
  local found, oldest = top[1], nil
  for _, owner in ipairs(redis.call('ZRANGEBYSCORE', ranking, top[2], top[2])) do
    local first = redis.call('ZRANGE', INDEX_STEM .. owner, 0, 0, 'WITHSCORES')[2]
    if first and (not oldest or tonumber(first) < oldest) then found, oldest = owner, tonumber(first) end
  end
  return found
end

while (redis.call('ZCARD', OWN_INDEX) > perKey or tonumber(redis.call('ZSCORE', OWNER_BYTES, OWNER) or 0) > perKeyBytes)
  and dropOldest(OWNER) do end
while redis.call('ZCARD', INDEX) > maxResponses and dropOldest(largest(OWNER_COUNTS)) do end
while tonumber(redis.call('GET', TOTAL) or 0) > maxBytes and dropOldest(largest(OWNER_BYTES)) do end

for i = 2, 7 do redis.call('PEXPIRE', KEYS[i], age) end
return 1
`;

/** The common keys and arguments only. Returns 1 when the response was there. */
export const DELETE_SCRIPT = `${COMMON}
local deleted = redis.call('DEL', KEYS[1])
forget(KEYS[1], OWNER)
return deleted
`;
