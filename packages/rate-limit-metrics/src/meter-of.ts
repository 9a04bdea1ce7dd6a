import { createRequire } from 'node:module';
import type { Meter, MeterProvider } from '@opentelemetry/api';
import { METER_NAME } from './names.js';

/** This package's version, the instrumentation scope's version. */
export const VERSION = '0.1.0';

type Api = typeof import('@opentelemetry/api');

let api: Api | null | undefined;

/**
 * `@opentelemetry/api`, loaded on first use, or `null` when the host did not install it (it is an
 * optional peer dependency: without it nothing is loaded and nothing is instrumented).
 */
export function loadApi(): Api | null {
  if (api !== undefined) return api;
  try {
    api = createRequire(import.meta.url)('@opentelemetry/api') as Api;
  } catch {
    api = null;
  }
  return api;
}

/** Options that choose the meter. */
export interface MeterChoice {
  /** The provider to record with; default the global one registered with `@opentelemetry/api`. */
  readonly meterProvider?: MeterProvider;
}

/**
 * The meter to record with, or `undefined` when nothing would be recorded: no provider given and
 * `@opentelemetry/api` not installed, or no global provider registered (its meters are no-ops, and
 * like every OpenTelemetry meter they stay no-ops: register the provider before instrumenting).
 */
export function meterOf(choice: MeterChoice): Meter | undefined {
  if (choice.meterProvider !== undefined) return choice.meterProvider.getMeter(METER_NAME, VERSION);
  const a = loadApi();
  if (a === null) return undefined;
  const meter = a.metrics.getMeter(METER_NAME, VERSION);
  return meter instanceof (a.createNoopMeter().constructor as new () => Meter) ? undefined : meter;
}
