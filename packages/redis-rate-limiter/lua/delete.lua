-- Forgets one bucket (RL-I2). KEYS: the bucket. Reply: 1 when it existed.

return redis.call('DEL', KEYS[1])
