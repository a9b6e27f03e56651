/**
 * Soak: the whole system on private Postgres, Redis and NATS holds mixed traffic at half its measured
 * capacity for SOAK_DURATION_S (default 900 s), while RSS is sampled per process. Not part of CI.
 * Usage: npm run build && node dist/bench/soak/run.js
 */
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { PROCESSES } from '@platform/runner';
import { startIsolatedStack } from '@platform/testing/reliability';
import { residentMiB } from '../lib/process-usage';

const DURATION_S = Number(process.env.SOAK_DURATION_S ?? 900);
const CAPACITY_PROBE_S = Number(process.env.SOAK_CAPACITY_PROBE_S ?? 15);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 20);
const SAMPLE_EVERY_MS = Number(process.env.SOAK_SAMPLE_MS ?? 10_000);
const log = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  // Warnings only: the soak measures the system, not its request logging.
  const stack = await startIsolatedStack('soak', { LOG_LEVEL: 'warn' });
  const receiver = createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end('ok')));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  try {
    const org = await stack.createOrg();
    const table = await org.api.post('/tables', {
      name: 'Soak',
      fields: [{ name: 'Title', field_type: 'text' }, { name: 'N', field_type: 'number' }, { name: 'Status', field_type: 'select', options: { values: ['a', 'b'] } }],
    });
    const tableId = table.body.data.id as string;
    const seedRow = await org.api.post(`/tables/${tableId}/rows`, { data: { title: 'seed', n: 0, status: 'a' } });
    const rowId = seedRow.body.data.id as string;
    const port = (receiver.address() as AddressInfo).port;
    await org.api.post('/webhooks', { name: 'Soak', url: `http://127.0.0.1:${port}/hook`, events: ['row.created', 'row.updated'] });

    const base = stack.gatewayUrl;
    const headers = { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' };
    // The mix: writes that fan out to a webhook, reads of lists with a filter, single reads, updates.
    const requests = [
      { method: 'POST' as const, path: `/v1/tables/${tableId}/rows`, body: JSON.stringify({ data: { title: 'soak', n: 1, status: 'b' } }) },
      { method: 'GET' as const, path: `/v1/tables/${tableId}/rows?limit=20&sort=n&order=desc&filter=${encodeURIComponent('{"status":"b"}')}` },
      { method: 'GET' as const, path: `/v1/tables/${tableId}/rows/${rowId}` },
      { method: 'PATCH' as const, path: `/v1/tables/${tableId}/rows/${rowId}`, body: JSON.stringify({ data: { n: 2 } }) },
      { method: 'GET' as const, path: '/v1/tables' },
      { method: 'GET' as const, path: '/v1/webhooks' },
    ];
    const origin = new URL(base).origin;
    const run = (duration: number, rate?: number) => autocannon({ url: origin, headers, requests, connections: CONNECTIONS, duration, ...(rate ? { overallRate: rate } : {}) });

    log(`capacity probe: ${CAPACITY_PROBE_S} s, ${CONNECTIONS} connections, unthrottled`);
    const probe = await run(CAPACITY_PROBE_S);
    const capacity = probe.requests.average;
    const rate = Math.max(1, Math.floor(capacity / 2));
    log(`capacity ${capacity} req/s (p99 ${probe.latency.p99} ms); soaking at ${rate} req/s for ${DURATION_S} s`);

    const memory = () => Object.fromEntries(PROCESSES.map(({ name }) => [name, residentMiB(stack.process(name).pid)]));
    const samples: Array<{ at: number; rss: Record<string, number | undefined> }> = [{ at: 0, rss: memory() }];
    const started = Date.now();
    const sampler = setInterval(() => samples.push({ at: Math.round((Date.now() - started) / 1000), rss: memory() }), SAMPLE_EVERY_MS);
    const soak = await run(DURATION_S, rate);
    clearInterval(sampler);
    samples.push({ at: Math.round((Date.now() - started) / 1000), rss: memory() });

    const first = samples[0].rss;
    const last = samples[samples.length - 1].rss;
    const report = {
      date: new Date().toISOString(),
      durationS: DURATION_S,
      capacityReqPerS: capacity,
      targetReqPerS: rate,
      throughputReqPerS: soak.requests.average,
      requests: Math.round(soak.requests.average * DURATION_S),
      p50Ms: soak.latency.p50,
      p99Ms: soak.latency.p99,
      // autocannon counts timeouts among errors.
      errors: soak.errors,
      non2xx: soak.non2xx,
      memoryMiB: Object.fromEntries(PROCESSES.map(({ name }) => [name, { start: first[name], end: last[name], peak: Math.max(...samples.map((s) => s.rss[name] ?? 0)) }])),
      samples: samples.length,
    };
    log(JSON.stringify(report, null, 2));
    if (report.errors + report.non2xx > 0) process.exitCode = 1;
  } finally {
    receiver.close();
    await stack.stop();
  }
}

main().catch((error: Error) => {
  process.stderr.write(`soak failed: ${error.stack ?? error.message}\n`);
  process.exit(1);
});
