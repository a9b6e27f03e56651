import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** One registry per process, scraped at /metrics on the health port. */
export const metricsRegistry = new Registry();
/**
 * The event loop's delay is sampled by a timer of this period. prom-client's 10 ms default wakes every
 * process 100 times a second even when idle (about 5 ms of CPU a second each, and a wake-up that costs
 * most on a busy or virtualized machine); 100 ms still gives 600 samples a minute for the percentiles.
 */
const EVENT_LOOP_SAMPLE_MS = 100;
collectDefaultMetrics({ register: metricsRegistry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });

export function counter(name: string, help: string, labelNames: string[] = []): Counter<string> {
  return (metricsRegistry.getSingleMetric(name) as Counter<string>) ?? new Counter({ name, help, labelNames, registers: [metricsRegistry] });
}

export function gauge(name: string, help: string, labelNames: string[] = []): Gauge<string> {
  return (metricsRegistry.getSingleMetric(name) as Gauge<string>) ?? new Gauge({ name, help, labelNames, registers: [metricsRegistry] });
}

export function histogram(name: string, help: string, labelNames: string[] = [], buckets?: number[]): Histogram<string> {
  return (
    (metricsRegistry.getSingleMetric(name) as Histogram<string>) ??
    new Histogram({ name, help, labelNames, buckets: buckets ?? [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30], registers: [metricsRegistry] })
  );
}
