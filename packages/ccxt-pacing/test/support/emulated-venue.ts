import type { Clock } from '@core/rate-limit-contract';
import { getVenueSpec } from '@core/exchange-specs';
import { startVenueEmulator, type VenueEmulator } from '@core/venue-emulator';
import { CCXT_VENUES } from '../../src/index.js';

/** The emulators of every family of a ccxt setup, one per spec, on loopback. */
export interface EmulatedCcxtVenue {
  readonly baseBySpec: Readonly<Record<string, string>>;
  readonly emulators: readonly VenueEmulator[];
  /** The counters summed over the families. */
  totals(): { requests: number; admitted: number; violations: number; rejected: number; badRequests: number; bans: number };
  close(): Promise<void>;
}

export async function startCcxtVenue(name: string, options: { clock?: Clock; unlimited?: boolean } = {}): Promise<EmulatedCcxtVenue> {
  const setup = CCXT_VENUES[name];
  if (setup === undefined) throw new Error(`no setup ${name}`);
  const emulators: VenueEmulator[] = [];
  const baseBySpec: Record<string, string> = {};
  for (const spec of Object.keys(setup.families)) {
    const e = await startVenueEmulator({ spec: getVenueSpec(spec), ...(options.clock === undefined ? {} : { clock: options.clock }) });
    emulators.push(e);
    baseBySpec[spec] = e.url;
  }
  return {
    baseBySpec,
    emulators,
    totals() {
      const t = { requests: 0, admitted: 0, violations: 0, rejected: 0, badRequests: 0, bans: 0 };
      for (const e of emulators) {
        const s = e.stats();
        t.requests += s.requests;
        t.admitted += s.admitted;
        t.violations += s.violations;
        t.rejected += s.rejected;
        t.badRequests += s.badRequests;
        t.bans += s.bans;
      }
      return t;
    },
    async close() {
      await Promise.all(emulators.map((e) => e.close()));
    },
  };
}
