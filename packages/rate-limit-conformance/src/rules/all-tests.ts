import type { ConformanceTest } from '../conformance-test.js';
import { ADMISSION } from './admission.js';
import { FAILURES } from './failures.js';
import { HOST_CONTRACT } from './host-contract.js';
import { INSPECTING } from './inspecting.js';
import { KEYS_AND_LIMITS } from './keys-and-limits.js';
import { MODEL_CHECK } from './model-check.js';
import { RECORDING } from './recording.js';
import { SAFETY } from './safety-property.js';
import { SEVERAL_BUCKETS } from './several-buckets.js';
import { WAITING } from './waiting.js';

/** Every test of the suite, in catalogue order. */
export const ALL_TESTS: readonly ConformanceTest[] = [
  ...KEYS_AND_LIMITS,
  ...ADMISSION,
  ...SAFETY,
  ...MODEL_CHECK,
  ...WAITING,
  ...SEVERAL_BUCKETS,
  ...RECORDING,
  ...INSPECTING,
  ...FAILURES,
  ...HOST_CONTRACT,
];
