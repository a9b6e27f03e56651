/**
 * Redis memory over a million deliveries: the whole system on private Postgres, Redis and NATS, one webhook
 * on a loopback receiver that answers 200, and rows created in batches of 100 until DELIVERIES events were
 * delivered. Redis's `used_memory` and key count are sampled all along; finished deliveries must leave
 * nothing behind, so the memory at the end is the memory once warm. Not part of CI (about 15 minutes
 * on a quiet 2-core machine).
 * Usage: npm run build && node dist/bench/delivery-memory/run.js (figures in docs/reliability.md)
 */
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import Redis from 'ioredis';
import { startIsolatedStack } from '@platform/testing/reliability';

const DELIVERIES = Number(process.env.DELIVERIES ?? 1_000_000);
const BATCH = 100;
const WRITERS = Number(process.env.DELIVERY_WRITERS ?? 4);
/** Rows created but not yet received: the writers wait above it, so the figure is Redis at work, not a backlog. */
const MAX_AHEAD = Number(process.env.DELIVERY_MAX_AHEAD ?? 5_000);
const SAMPLE_EVERY_MS = 10_000;
/**
 * What the memory at the end may exceed the memory once warm by (the first 5% delivered: BullMQ's event
 * stream has reached its cap, the queue's keys exist): allocator noise, not deliveries.
 */
const FLAT_MIB = 5;
const WARM_SHARE = 0.05;
const log = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Sample {
  atS: number;
  delivered: number;
  usedMiB: number;
  keys: number;
}

async function redisSample(redis: Redis, started: number, delivered: number): Promise<Sample> {
  const info = await redis.info('memory');
  const used = Number(/used_memory:(\d+)/.exec(info)?.[1] ?? 0);
  return { atS: Math.round((Date.now() - started) / 1000), delivered, usedMiB: Math.round((used / 2 ** 20) * 100) / 100, keys: await redis.dbsize() };
}

async function main(): Promise<void> {
  const stack = await startIsolatedStack('delivery-memory', { LOG_LEVEL: 'warn' });
  let delivered = 0;
  const receiver = createServer((req, res) => req.resume().on('end', () => {
    delivered += 1;
    res.writeHead(200).end('ok');
  }));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const redis = new Redis(stack.redis.url);
  // Ctrl-C still stops the stack's processes and its private servers.
  const interrupted = () => void stack.stop().finally(() => process.exit(130));
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    const org = await stack.createOrg();
    const table = await org.api.post('/tables', { name: 'Deliveries', fields: [{ name: 'Title', field_type: 'text' }, { name: 'N', field_type: 'number' }] });
    const tableId = table.body.data.id as string;
    const port = (receiver.address() as AddressInfo).port;
    const hook = await org.api.post('/webhooks', { name: 'Memory', url: `http://127.0.0.1:${port}/hook`, events: ['row.created'] });
    if (hook.status !== 201) throw new Error(`webhook not created: ${hook.status}`);

    const started = Date.now();
    const samples: Sample[] = [await redisSample(redis, started, 0)];
    const sampler = setInterval(() => void redisSample(redis, started, delivered).then((sample) => {
      samples.push(sample);
      log(`${sample.atS} s: ${sample.delivered} delivered, Redis ${sample.usedMiB} MiB, ${sample.keys} keys`);
    }), SAMPLE_EVERY_MS);

    let created = 0;
    let failures = 0;
    const writer = async () => {
      while (created < DELIVERIES) {
        if (created - delivered > MAX_AHEAD) {
          await sleep(50);
          continue;
        }
        const count = Math.min(BATCH, DELIVERIES - created);
        created += count;
        const rows = Array.from({ length: count }, (_, i) => ({ data: { title: `row ${created - count + i}`, n: i } }));
        const res = await org.api.post(`/tables/${tableId}/rows/batch`, { rows });
        if (res.status !== 201) {
          failures += 1;
          created -= count;
          await sleep(200);
        }
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, writer));
    while (delivered < DELIVERIES) await sleep(200);
    // The worker removes a finished job right after its receiver answered; give the last ones a moment.
    await sleep(5_000);
    clearInterval(sampler);
    const last = await redisSample(redis, started, delivered);
    samples.push(last);

    const first = samples[0];
    const warm = samples.find((sample) => sample.delivered >= DELIVERIES * WARM_SHARE) ?? last;
    const halfway = samples.find((sample) => sample.delivered >= DELIVERIES / 2) ?? last;
    const report = {
      date: new Date().toISOString(),
      deliveries: delivered,
      seconds: last.atS,
      deliveriesPerS: Math.round(delivered / last.atS),
      failedBatches: failures,
      redisUsedMiB: { start: first.usedMiB, warm: warm.usedMiB, halfway: halfway.usedMiB, peak: Math.max(...samples.map((s) => s.usedMiB)), end: last.usedMiB },
      redisKeys: { start: first.keys, warm: warm.keys, halfway: halfway.keys, peak: Math.max(...samples.map((s) => s.keys)), end: last.keys },
      flat: last.usedMiB - warm.usedMiB <= FLAT_MIB && last.keys <= warm.keys,
    };
    log(JSON.stringify(report, null, 2));
    if (!report.flat || delivered < DELIVERIES) process.exitCode = 1;
  } finally {
    redis.disconnect();
    receiver.close();
    await stack.stop();
  }
}

main().catch((error: Error) => {
  process.stderr.write(`delivery-memory failed: ${error.stack ?? error.message}\n`);
  process.exit(1);
});
