import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The demo runs are real-time and share 2 cores: one file at a time keeps them honest.
    fileParallelism: false,
  },
});
