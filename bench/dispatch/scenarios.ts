import autocannon from 'autocannon';
import { benchApi, log, round } from '../lib/bench-http';
import type { BenchOrg } from '../lib/bench-stack';
import { cpuPer, UsageSampler } from '../lib/usage-sampler';

export interface DispatchFigures {
  operation: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** CPU milliseconds each process spent per request. */
  cpuMsPerRequest: Record<string, number>;
}

const WEEK = [1, 2, 3, 4, 5].map((day) => ({ day_of_week: day, start_time: '09:00:00', end_time: '17:00:00' }));

/**
 * The request path itself, with as little work behind it as an operation has: reads of a five-slot
 * weekly availability (one indexed query of the calendar service), as fast as they go. The CPU per
 * request of the gateway is its routing, checks and forwarding; the calendar's is its dispatch of the
 * message to the handler and back, plus that query and its mapping.
 */
export async function measureDispatch(gatewayUrl: string, org: BenchOrg, usage: UsageSampler, durationS: number): Promise<DispatchFigures> {
  await benchApi(gatewayUrl, org.key)('PUT', '/calendar/availability', { schedules: WEEK, timezone: 'Europe/Berlin' });
  const run = () =>
    autocannon({ url: `${gatewayUrl}/calendar/availability`, headers: { authorization: `Bearer ${org.key}` }, connections: 10, duration: durationS });
  log('dispatch: warming up ...');
  await autocannon({ url: `${gatewayUrl}/calendar/availability`, headers: { authorization: `Bearer ${org.key}` }, connections: 10, duration: 3 });
  log(`dispatch: GET /calendar/availability, 10 connections, ${durationS}s ...`);
  const before = await usage.cpu();
  const result = await run();
  const after = await usage.cpu();
  const cpuMsPerRequest = cpuPer(before, after, result.requests.total);
  const figures = { operation: 'GET /calendar/availability', rps: round(result.requests.average, 1), p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, cpuMsPerRequest };
  const shown = ['gateway', 'calendar', 'nats-server', 'postgres'].map((name) => `${name} ${cpuMsPerRequest[name] ?? 0}`).join(', ');
  log(`dispatch: ${figures.rps} requests/s, p50 ${figures.p50} ms, p99 ${figures.p99} ms, non-2xx ${figures.non2xx}; CPU ms per request: ${shown}`);
  return figures;
}
