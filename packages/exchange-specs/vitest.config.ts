import { defineConfig } from 'vitest/config';

// The safety replays run many thousands of admissions per bucket: on a busy machine one can take longer
// than vitest's default 5 s, which says nothing about correctness.
export default defineConfig({ test: { testTimeout: 120_000 } });
