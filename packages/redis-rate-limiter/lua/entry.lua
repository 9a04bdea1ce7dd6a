-- Hands the operations to Redis; the library's last part. src/scripts.ts puts one line before the library:
-- loaded by FUNCTION LOAD ("#!lua name=..." first), that line sets LIBRARY, the library's versioned name, and
-- every operation becomes the function LIBRARY_<operation> (FCALL; two versions of the package sharing one
-- server never replace each other's functions). On a server without Functions each operation is a script
-- (EVALSHA) whose first line sets OPERATION, the operation it runs. (While a library loads, Redis 7.0 gives
-- it no globals but redis: the top level of every part reads none.)

if redis.register_function ~= nil then
  local function register(name)
    local operation = OPERATIONS[name]
    redis.register_function(LIBRARY .. '_' .. name, operation)
  end
  register('admit')
  register('cancel')
  register('record')
  register('sync')
  register('penalize')
  register('inspect')
  register('delete')
else
  return OPERATIONS[OPERATION](KEYS, ARGV)
end
