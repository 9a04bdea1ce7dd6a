-- Forgets one bucket (RL-I2). keys: the bucket. Reply: 1 when it existed.

function OPERATIONS.delete(keys)
  return redis.call('DEL', keys[1])
end
