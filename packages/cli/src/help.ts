/** `exlimits --help`. */
export const MAIN_HELP = `exlimits: keep trading bots inside exchange API rate limits (demo and budget panel)

Usage:
  exlimits demo [options]              send requests at full speed through the paced client to an
                                       emulated venue and show that none is refused
  exlimits inspect --redis URL [opts]  live table of the buckets in a Redis store
  exlimits <command> --help            the options of a command
  exlimits --version                   the version

Exit codes: 0 done; 1 the run failed (the message says why); 2 a mistake in the command line
(running exlimits without a command is one).
`;

import { listVenues } from '@core/exchange-specs';

/** Words wrapped to `width` columns, every line after the first indented by `indent` spaces. */
function wrap(words: readonly string[], width: number, indent: number): string {
  const lines: string[] = [];
  let line = '';
  for (const w of words) {
    if (line !== '' && indent + line.length + 1 + w.length > width) {
      lines.push(line);
      line = w;
    } else {
      line = line === '' ? w : `${line} ${w}`;
    }
  }
  if (line !== '') lines.push(line);
  return lines.join(`\n${' '.repeat(indent)}`);
}

/**
 * The `--venue` help: which ids carry documented limits (hand-authored, with the plain names that
 * resolve to them) and which are estimated from ccxt.
 */
function venueHelp(): string {
  const venues = listVenues();
  const documented = venues
    .filter((v) => v.evidence === 'documented')
    .map((v, i, all) => `${v.id}${v.aliases.length > 0 ? ` (also ${v.aliases.join(', ')})` : ''}${i < all.length - 1 ? ',' : ';'}`);
  const estimated = venues.filter((v) => v.evidence === 'estimated from ccxt');
  const words = [
    'a venue id or name (default okx), or "all" for binance-spot, okx, bybit, kucoin and kraken in turn.',
    "Documented limits (hand-authored from the venue's own documentation):",
    ...documented,
    `estimated from ccxt (ccxt's own pacing, not documented limits; ${estimated.length} in all):`,
    'ccxt:<id> for the venues above (ccxt:binance), or another ccxt id such as phemex',
  ].flatMap((t) => t.split(' '));
  return wrap(words, 98, 20);
}

/** \`exlimits demo --help\`. */
export const DEMO_HELP = `exlimits demo: the main job, end to end

Several workers across several credentials send requests as fast as they can through
@core/paced-fetch to an emulated venue (a loopback HTTP server that enforces the venue's documented
limits with its own algorithm and refuses like the venue does). A live progress line runs on a
terminal; at the end a summary table shows what was sent, what the venue refused, bans, and how much
of each limit was used (documented, or estimated from ccxt for a ccxt-derived venue); an SVG chart of
usage per window against each limit is written.

Usage:
  exlimits demo [--venue ID|all] [--seconds N] [--credentials N] [--workers N]
                [--redis URL --processes N] [--out DIR] [--margin F] [--fail-orders F]
                [--ws] [--metrics-port N] [--json] [--no-classes] [--client fetch|ccxt]

Options:
  --venue ID        ${venueHelp()}
  --seconds N       how long to send, per venue (default 20). Utilization is measured over the
                    venue's complete windows: Binance's weight window is 1 minute, so give it
                    --seconds 130 to see it
  --credentials N   API keys (each its own account) the workers share (default 3)
  --workers N       concurrent workers in all (default: 2 per credential per request type)
  --redis URL       share the buckets through Redis (redis://host:port[/db]) instead of in process
  --processes N     with --redis: run the workers in N child processes (default 1 = in this process)
  --out DIR         where the SVG chart goes (default demo-out)
  --margin F        the fraction of each token bucket left unused, 0 <= F < 1 (default 0.04);
                    a window limit keeps the venue's number and allows 100 ms for a request
                    to reach the venue
  --fail-orders F   the share of orders the emulated venue fails with its own errors, 0 to 1
                    (default 0.05), on a venue that charges an order by its outcome (Binance
                    spot: an order's weight only when it fails; the client admits orders without
                    reserving it, records it on a failure, and keeps what may still be charged in
                    flight within 2 % of the limit); other venues fail nothing
  --metrics-port N  serve OpenTelemetry metrics in Prometheus format at
                    http://127.0.0.1:N/metrics while the run lasts (not with --processes)
  --json            print the summary as JSON on stdout (the progress and tables go to stderr)
  --ws              drive the venue's WebSocket limits too, with the same identities and
                    limiter: paced WebSocket connections (the emulator drops each after 2.5 s,
                    a reconnect storm), subscriptions, and WebSocket API orders and requests
                    that spend the REST budgets beside the REST workers; the summary and the
                    chart show the WebSocket limits beside the REST ones. Venues with WebSocket
                    limits: binance-spot, binance-usdm, okx, bybit, kucoin, kraken, hyperliquid,
                    gate, bitget
  --no-classes      admit every request as normal with nothing kept free (the comparison run).
                    By default requests go in classes: market data bulk (it leaves each bucket's
                    own reserve free: 5 % of a window, 20 % of a token bucket, where cancels are
                    charged), orders normal (they leave 10 % of an account's order count to the
                    hedges), cancels critical by nature, hedge orders marked critical; the summary
                    prints each class's waits (p50, p99, max) beside the utilization
  --client C        fetch (default): the workers send the venue's requests through @core/paced-fetch;
                    ccxt: they call ccxt's unified methods (fetchOrderBook, fetchTicker,
                    fetchBalance, createOrder, cancelOrder, fetchOpenOrders; 2 workers per
                    credential per method) on ccxt exchanges paced by @core/ccxt-pacing, against an
                    emulated venue per API family ccxt calls. --venue binance (or binance-spot),
                    binanceusdm (or binance-usdm), okx, bybit, kucoin, kraken, or all for the six;
                    ccxt must be installed beside the CLI (npm install ccxt); not with --ws; the
                    venue fails no orders (--fail-orders applies to the fetch client); a ccxt
                    exception (a -1021 among them) fails the run
  --help            this text

The summary:
  received, admitted, refused, bans  the venue's own counts (refused: over a limit, or while banned)
  retries        requests sent again after a refusal
  not sent       requests whose wait for room was longer than their budget: given up, never sent
  store errors   admissions the limiter's store did not answer in time (nothing was sent for them)
  peak           the highest count the venue's own counter reached, over the limit
  utilization    cost the venue admitted per complete window, over the limit
  wait           from a request's admission call to its send time, per class, after each process's
                 first second (its start-up, printed apart: Node loading, not the limits)
Window limits are paced: 5 % of a window goes out at once and the rest at the window's average
rate, so a burst waits (27 % of Binance's minute weight takes about 13 s).

Exit codes: 0 no request was refused; 1 the venue refused requests or the run failed; 2 usage.
`;

/** `exlimits inspect --help`. */
export const INSPECT_HELP = `exlimits inspect: the budget panel of a Redis store

Shows every live limit from the Redis rate limiter's snapshot, refreshed until interrupted (Ctrl-C):
venue, hashed credential, axis, and

  documented limit  the venue's limit it keeps under (the tier in force), from @core/exchange-specs
  limiter           the limiter's own limit: a window limit "60 / 2 s +100 ms" (per window, with the
                    time a send may take to reach the venue), or a token bucket "1 cap, 4.20/s"
  most per window   the most the limiter lets the venue count per window over time, as a share of
                    the documented limit: a window's share times W / (W + jitter), 95.2 % of 2 s
  counted now       what the limiter counts in the window ending now, as a share of the documented
                    limit: the demo's utilization, read live. It also counts again a send whose
                    answer came back late (it may have reached the venue late), so on a busy machine
                    it reads above what the venue counted
  now               free tokens, "full" (the next window is taken by sends and bookings), a queue of
                    bookings in seconds, or a penalty hold

A paced client's internal pacing buckets (axis ".../pace") are not limits of the venue: --json gives
each under the limit it paces. An empty panel says why: nothing stored under the prefix, or buckets
that count nothing now (a run ended).

Usage:
  exlimits inspect --redis URL [--prefix P] [--interval MS] [--once] [--metrics-port N] [--json]

Options:
  --redis URL       the Redis the limiters share (redis://host:port[/db]); required
  --prefix P        the limiter's key prefix (default "rl:"; the demo uses "exlimits-demo:")
  --interval MS     refresh period (default 1000)
  --once            print the table once and exit
  --metrics-port N  serve the buckets as OpenTelemetry metrics in Prometheus format at
                    http://127.0.0.1:N/metrics while it runs
  --json            print each refresh as one line of JSON instead of a table
  --help            this text
`;
