import { getVenueSpec } from '@core/exchange-specs';
import { startVenueEmulator, type EmulatorStats } from '@core/venue-emulator';

/** What the demo asks of its emulator process. */
export type EmulatorRequest =
  | { readonly type: 'start'; readonly venue: string; readonly dropAfterMs?: number; readonly failShare?: number }
  | { readonly type: 'stats'; readonly id: number }
  | { readonly type: 'close' };

/** What the emulator process answers. */
export type EmulatorReply =
  | { readonly type: 'ready'; readonly url: string; readonly wsUrl?: string }
  | { readonly type: 'stats'; readonly id: number; readonly stats: EmulatorStats }
  | { readonly type: 'failed'; readonly message: string };

function send(m: EmulatorReply): void {
  if (process.send !== undefined && process.connected) process.send(m);
}

/**
 * The demo's venue in a process of its own: it counts every request when it arrives, on its own event
 * loop, as a venue does, whatever load the clients put on theirs. Answers stats on request; closes
 * and exits on `close` or when the parent goes away.
 */
process.once('message', (start: EmulatorRequest) => {
  if (start.type !== 'start') return;
  void (async () => {
    try {
      const venue = await startVenueEmulator({
        spec: getVenueSpec(start.venue),
        ...(start.dropAfterMs === undefined ? {} : { webSocket: { dropAfterMs: start.dropAfterMs } }),
        ...(start.failShare === undefined ? {} : { failShare: start.failShare }),
      });
      const stop = async (): Promise<void> => {
        await venue.close();
        process.exit(0);
      };
      process.on('message', (m: EmulatorRequest) => {
        if (m.type === 'stats') send({ type: 'stats', id: m.id, stats: venue.stats() });
        if (m.type === 'close') void stop();
      });
      process.once('disconnect', () => void stop());
      send({ type: 'ready', url: venue.url, ...(venue.wsUrl === undefined ? {} : { wsUrl: venue.wsUrl }) });
    } catch (e) {
      send({ type: 'failed', message: e instanceof Error ? e.message : String(e) });
      process.exit(1);
    }
  })();
});
