import { resolveRequest, type VenueSpec } from '@core/exchange-specs';
import { laneSlots, type Lane } from './workloads.js';

/** Whether a lane's request charges only shared (IP) buckets: it resolves without a credential. */
function isPublicLane(spec: VenueSpec, lane: Lane): boolean {
  const url = new URL(lane.path, 'http://venue.invalid');
  const query = Object.fromEntries(url.searchParams);
  const r = resolveRequest(spec, { method: lane.method, path: url.pathname, query }, { credential: null });
  return r.ok && r.checks.every((c) => c.key.credential === null);
}

/**
 * The process of each demo worker with `processes` processes: a credential's private requests all
 * run in one process (credential k in process k % processes), so that process's paced fetch knows
 * every request of that credential and a usage header it reads counts only other clients as foreign
 * (exchange-specs' `own`); public requests (IP only) are spread over every process (worker i in
 * process i % processes). Worker i uses credential i % credentials and lane slot
 * floor(i / credentials) % slots (see `runWorkers`).
 */
export function demoProcessOf(spec: VenueSpec, lanes: readonly Lane[], credentials: number, processes: number): (workerId: number) => number {
  const slots = laneSlots(lanes);
  const publicSlot = slots.map((l) => isPublicLane(spec, l));
  return (i) => {
    const slot = Math.floor(i / credentials) % Math.max(1, slots.length);
    return publicSlot[slot] === true ? i % processes : (i % credentials) % processes;
  };
}
