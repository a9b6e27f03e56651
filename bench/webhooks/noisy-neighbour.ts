/**
 * The noisy neighbour: one webhook whose receiver never answers (the delivery timeout stays at its 30 s
 * default) with 1,000 deliveries queued for it, and a healthy webhook of another organization receiving
 * rows created at 100/s. The healthy webhook's commit-to-receipt latency is the figure: with the
 * per-webhook in-flight cap it stays what it is without the neighbour.
 * Usage: node dist/bench/webhooks/noisy-neighbour.js (starts a stack of its own, like `npm run bench`).
 */
import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import { Pool } from 'undici';
import { startBenchStack } from '../lib/bench-stack';
import { benchApi, log, percentile, round, sleep } from '../lib/bench-http';
import { commitToReceipt, createAtRate } from './create-at-rate';
import { deliveryStages } from './stages';
import { ArrivalRecorder, HANGING_PREFIX } from './receiver';

const BACKLOG = Number(process.env.BENCH_NOISY_BACKLOG ?? 1_000);
const RATE = Number(process.env.BENCH_NOISY_RATE ?? 100);
const DURATION_S = Number(process.env.BENCH_NOISY_DURATION_S ?? 30);
const WARM_UP_S = Number(process.env.BENCH_NOISY_WARM_UP_S ?? 3);

async function main(): Promise<void> {
  const stack = await startBenchStack({ redisUrl: process.env.BENCH_REDIS_URL, logLevel: process.env.BENCH_LOG_LEVEL ?? 'warn' });
  const receiver = new ArrivalRecorder();
  const port = await receiver.listen();
  const redis = new IORedis(stack.env.REDIS_URL, { maxRetriesPerRequest: null });
  const queue = new Queue(stack.env.WEBHOOK_QUEUE, { connection: redis });
  const gatewayUrl = new URL(stack.gatewayUrl);
  const gateway = new Pool(gatewayUrl.origin, { connections: 32 });
  try {
    const noisy = await stack.createOrg();
    const healthy = await stack.createOrg();
    const noisyApi = benchApi(stack.gatewayUrl, noisy.key);
    const healthyApi = benchApi(stack.gatewayUrl, healthy.key);
    const fields = [{ name: 'Title', field_type: 'text' }];
    const noisyTable = (await noisyApi('POST', '/tables', { name: 'noisy', fields })).data.id as string;
    const healthyTable = (await healthyApi('POST', '/tables', { name: 'healthy', fields })).data.id as string;
    await noisyApi('POST', '/webhooks', { name: 'never answers', url: `http://127.0.0.1:${port}${HANGING_PREFIX}`, events: ['row.created'] });
    await healthyApi('POST', '/webhooks', { name: 'healthy', url: `http://127.0.0.1:${port}/healthy`, events: ['row.created'] });

    log(`noisy neighbour: queueing ${BACKLOG} deliveries to a receiver that never answers ...`);
    for (let made = 0; made < BACKLOG; made += 100) {
      const rows = Array.from({ length: Math.min(100, BACKLOG - made) }, (_, i) => ({ data: { title: `noise ${made + i}` } }));
      await noisyApi('POST', `/tables/${noisyTable}/rows/batch`, { rows });
    }
    await sleep(2_000);
    const counts = await queue.getJobCounts('waiting', 'delayed', 'active');
    log(`noisy neighbour: queue ${JSON.stringify(counts)}, ${receiver.hanging} requests hanging; healthy rows at ${RATE}/s for ${DURATION_S}s ...`);

    // Rows created at RATE/s for `seconds`, then each one's commit-to-receipt latency once delivered (ascending).
    const offer = async (seconds: number) => {
      const responses = new Map<string, number>();
      const { errors } = await createAtRate(gateway, gatewayUrl, healthy.key, healthyTable, RATE, seconds, responses);
      const arrivals = () => receiver.arrivals.filter((arrival) => arrival.path === '/healthy' && responses.has(arrival.rowId));
      const deadline = Date.now() + 30_000;
      while (arrivals().length < responses.size && Date.now() < deadline) await sleep(100);
      return { created: responses.size, errors, latencies: commitToReceipt(arrivals(), responses), responses };
    };
    // A first burst is not measured: the first deliveries to a new receiver open its connections and run
    // code the processes have not compiled yet (their latency is printed, not counted).
    const warmUp = await offer(WARM_UP_S);
    log(`noisy neighbour: warm-up of ${WARM_UP_S}s, commit-to-receipt max ${round(warmUp.latencies[warmUp.latencies.length - 1] ?? NaN, 1)} ms (not counted)`);
    const { created, errors, latencies, responses } = await offer(DURATION_S);
    const figures = {
      date: new Date().toISOString(),
      backlog: BACKLOG,
      hanging: { openAtEnd: receiver.hanging, mostOpenAtOnce: receiver.hangingPeak, all: receiver.hangingTotal },
      noisyQueue: await queue.getJobCounts('waiting', 'delayed', 'active'),
      healthy: {
        rate: RATE,
        created,
        createErrors: errors,
        delivered: latencies.length,
        p50: round(percentile(latencies, 50), 1),
        p99: round(percentile(latencies, 99), 1),
        max: round(latencies[latencies.length - 1] ?? NaN, 1),
      },
      stages: await deliveryStages(stack.databaseUrl, '/healthy', responses, receiver.arrivals),
    };
    log(JSON.stringify(figures, null, 2));
  } finally {
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
    redis.disconnect();
    await receiver.close();
    await gateway.close();
    await stack.shutdown();
  }
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : error}\n`);
  process.exit(1);
});
