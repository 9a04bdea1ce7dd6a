import type { ConformanceTest } from '../conformance-test.js';
import { ADMISSION } from './admission.js';
import { BOOKING_RETURNS } from './booking-returns.js';
import { CALL_ARGUMENTS } from './call-arguments.js';
import { CALL_FORMS } from './call-forms.js';
import { FAILURES } from './failures.js';
import { HOLDS } from './holds.js';
import { HOST_CONTRACT } from './host-contract.js';
import { INSPECTING } from './inspecting.js';
import { KEYS_AND_LIMITS } from './keys-and-limits.js';
import { MODEL_CHECK } from './model-check.js';
import { OTHER_TRAFFIC } from './other-traffic.js';
import { PRIORITIES } from './priorities.js';
import { PRIORITY_BOUNDS } from './priority-bounds.js';
import { PRIORITY_CHARGES_BETWEEN } from './priority-charges-between.js';
import { PRIORITY_OVER_TIME } from './priority-over-time.js';
import { RECORDING } from './recording.js';
import { SAFETY } from './safety-property.js';
import { SEVERAL_BUCKETS } from './several-buckets.js';
import { TOLERANCE_AND_HORIZON } from './tolerance-and-horizon.js';
import { WAITING } from './waiting.js';
import { WINDOW_FEEDBACK } from './window-feedback.js';
import { WINDOW_LIMITS } from './window-limits.js';
import { WINDOW_PROPERTY } from './window-property.js';
import { WINDOW_SYNC } from './window-sync.js';
import { WINDOW_SYNC_EDGES } from './window-sync-edges.js';

/** Every test of the suite, in catalogue order. */
export const ALL_TESTS: readonly ConformanceTest[] = [
  ...KEYS_AND_LIMITS,
  ...ADMISSION,
  ...TOLERANCE_AND_HORIZON,
  ...SAFETY,
  ...OTHER_TRAFFIC,
  ...MODEL_CHECK,
  ...WAITING,
  ...BOOKING_RETURNS,
  ...SEVERAL_BUCKETS,
  ...RECORDING,
  ...HOLDS,
  ...WINDOW_LIMITS,
  ...WINDOW_PROPERTY,
  ...WINDOW_FEEDBACK,
  ...WINDOW_SYNC,
  ...WINDOW_SYNC_EDGES,
  ...PRIORITIES,
  ...PRIORITY_BOUNDS,
  ...PRIORITY_CHARGES_BETWEEN,
  ...PRIORITY_OVER_TIME,
  ...INSPECTING,
  ...CALL_FORMS,
  ...CALL_ARGUMENTS,
  ...FAILURES,
  ...HOST_CONTRACT,
];
