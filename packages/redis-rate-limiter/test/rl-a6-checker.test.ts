import { describe, expect, it } from 'vitest';
import { checkRlA6 } from './support/rl-a6.js';

describe('the RL-A6 checker used by the distributed and fault tests', () => {
  it('accepts a log that keeps the bound (a full burst, then the refill rate)', () => {
    const log = [...Array.from({ length: 5 }, () => ({ t: 0, cost: 1 })), ...Array.from({ length: 10 }, (_, i) => ({ t: 100 * (i + 1), cost: 1 }))];
    const r = checkRlA6(log, 5, 10);
    expect(r.worstExcess).toBeLessThanOrEqual(1e-9);
    expect(r.admittedCost).toBe(15);
  });

  it('finds one extra admission anywhere in the log', () => {
    const log = [
      ...Array.from({ length: 5 }, () => ({ t: 0, cost: 1 })),
      ...Array.from({ length: 10 }, (_, i) => ({ t: 100 * (i + 1), cost: 1 })),
      { t: 550, cost: 1 },
    ];
    const r = checkRlA6(log, 5, 10);
    expect(r.worstExcess).toBeGreaterThan(0.5);
  });

  it('finds a window that is too dense in the middle of a long log', () => {
    const steady = Array.from({ length: 100 }, (_, i) => ({ t: 1000 + 100 * i, cost: 1 }));
    const burst = Array.from({ length: 3 }, () => ({ t: 5_050, cost: 1 }));
    expect(checkRlA6(steady, 1, 10).worstExcess).toBeLessThanOrEqual(1e-9);
    expect(checkRlA6([...steady, ...burst], 1, 10).worstExcess).toBeGreaterThan(1);
  });
});
