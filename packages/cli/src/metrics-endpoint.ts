import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { MeterProvider } from '@opentelemetry/sdk-metrics';

/** A Prometheus `/metrics` endpoint and the meter provider that feeds it. */
export interface MetricsEndpoint {
  /** Where Prometheus scrapes: `http://127.0.0.1:<port>/metrics`. */
  readonly url: string;
  /** Record with this provider (`instrumentRateLimiter(limiter, { meterProvider })`). */
  readonly meterProvider: MeterProvider;
  /** Stops the endpoint. */
  close(): Promise<void>;
}

/**
 * Serves the metrics of this process at `http://127.0.0.1:<port>/metrics` through the official
 * OpenTelemetry Prometheus exporter (`@opentelemetry/exporter-prometheus`), on loopback only.
 *
 * @throws Error naming the port when it cannot be bound (in use, or not allowed).
 */
export async function startMetricsEndpoint(port: number): Promise<MetricsEndpoint> {
  const host = '127.0.0.1';
  let exporter: PrometheusExporter | undefined;
  await new Promise<void>((resolve, reject) => {
    exporter = new PrometheusExporter({ host, port }, (error) =>
      error ? reject(new Error(`cannot serve metrics on ${host}:${port}: ${error.message}`)) : resolve(),
    );
  });
  const reader = exporter as PrometheusExporter;
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    url: `http://${host}:${port}${PrometheusExporter.DEFAULT_OPTIONS.endpoint}`,
    meterProvider,
    close: () => meterProvider.shutdown(),
  };
}
