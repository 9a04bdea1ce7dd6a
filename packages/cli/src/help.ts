/** `exlimits --help`. */
export const MAIN_HELP = `exlimits: keep trading bots inside exchange API rate limits (demo and budget panel)

Usage:
  exlimits demo [options]              send requests at full speed through the paced client to an
                                       emulated venue and show that none is refused
  exlimits inspect --redis URL [opts]  live table of the buckets in a Redis store
  exlimits <command> --help            the options of a command

Exit codes: 0 done; 1 the run failed (the message says why); 2 a mistake in the command line.
`;

/** `exlimits demo --help`. */
export const DEMO_HELP = `exlimits demo: the main job, end to end

Several workers across several credentials send requests as fast as they can through
@core/paced-fetch to an emulated venue (a loopback HTTP server that enforces the venue's documented
limits with its own algorithm and refuses like the venue does). A live progress line runs on a
terminal; at the end a summary table shows what was sent, what the venue refused, bans, and how much
of each documented limit was used; an SVG chart of usage per window against each limit is written.

Usage:
  exlimits demo [--venue ID|all] [--seconds N] [--credentials N] [--workers N]
                [--redis URL --processes N] [--out DIR] [--margin F]

Options:
  --venue ID        binance-spot, okx, bybit, kucoin, kraken, any other spec id, or "all" for
                    the five in turn (default okx)
  --seconds N       how long to send, per venue (default 20). Utilization is measured over the
                    venue's complete windows: Binance's weight window is 1 minute, so give it
                    --seconds 130 to see it
  --credentials N   API keys (each its own account) the workers share (default 3)
  --workers N       concurrent workers in all (default: 2 per credential per request type)
  --redis URL       share the buckets through Redis (redis://host:port[/db]) instead of in process
  --processes N     with --redis: run the workers in N child processes (default 1 = in this process)
  --out DIR         where the SVG chart goes (default demo-out)
  --margin F        the fraction of each limit left unused, 0 <= F < 1 (default 0.04; the
                    limiter also allows 50 ms for a request to reach the venue)
  --help            this text

Exit codes: 0 no request was refused; 1 the venue refused requests or the run failed; 2 usage.
`;

/** `exlimits inspect --help`. */
export const INSPECT_HELP = `exlimits inspect: the budget panel of a Redis store

Shows every live bucket (venue, hashed credential, axis, borrowed / capacity, hold) from the Redis
rate limiter's snapshot, refreshed until interrupted (Ctrl-C).

Usage:
  exlimits inspect --redis URL [--prefix P] [--interval MS] [--once]

Options:
  --redis URL       the Redis the limiters share (redis://host:port[/db]); required
  --prefix P        the limiter's key prefix (default "rl:"; the demo uses "exlimits-demo:")
  --interval MS     refresh period (default 1000)
  --once            print the table once and exit
  --help            this text
`;
