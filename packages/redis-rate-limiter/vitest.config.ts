import { defineConfig } from 'vitest/config';

// The tests start real redis-server processes (a cluster takes a few seconds on a busy machine) and
// fork worker processes; files run one after another so their real-time timeouts are not starved.
export default defineConfig({
  test: {
    fileParallelism: false,
    hookTimeout: 120_000,
    testTimeout: 60_000,
  },
});
