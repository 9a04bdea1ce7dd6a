/** Forgets one bucket (RL-I2). KEYS: the bucket. Reply: 1 when it existed. */
export const DELETE_SCRIPT = `return redis.call('DEL', KEYS[1])`;
