import type { EmulatorStats } from '@core/venue-emulator';

/**
 * The demo's progress line. Every figure comes from one reading of the venue's counters, so it can
 * never show more admitted than sent: `sent` is what the venue received (a request is received before
 * it is admitted or refused), not what the workers have had answered so far.
 */
export function progressText(
  venue: string,
  elapsedSeconds: number,
  totalSeconds: number,
  stats: Pick<EmulatorStats, 'requests' | 'admitted' | 'violations' | 'refusedWhileBanned' | 'bans'>,
): string {
  const t = Math.min(totalSeconds, Math.max(0, elapsedSeconds));
  return `${venue}  ${t.toFixed(1)}/${totalSeconds} s  sent ${stats.requests}  admitted ${stats.admitted}  refused by the venue ${stats.violations + stats.refusedWhileBanned}  bans ${stats.bans}`;
}
