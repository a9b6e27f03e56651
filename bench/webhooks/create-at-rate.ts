import { performance } from 'node:perf_hooks';
import type { Pool } from 'undici';
import { sleep } from '../lib/bench-http';

/** Wall-clock milliseconds with sub-millisecond precision, comparable with the receiver's arrival times. */
const now = () => performance.now() + performance.timeOrigin;

/** Creates rows at `rate` per second for the duration; keeps each row's create-response time by row id. */
export async function createAtRate(gateway: Pool, base: URL, key: string, tableId: string, rate: number, durationS: number, responses: Map<string, number>) {
  const total = Math.round(rate * durationS);
  const started = now();
  let issued = 0;
  let errors = 0;
  const inFlight: Promise<void>[] = [];
  while (issued < total) {
    const due = Math.min(total, Math.floor(((now() - started) / 1000) * rate));
    for (; issued < due; issued += 1) {
      inFlight.push(
        gateway
          .request({
            method: 'POST',
            path: `${base.pathname}/tables/${tableId}/rows`,
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ data: { title: `row ${issued}` } }),
          })
          .then(async (res) => {
            const json = (await res.body.json()) as { data: { id: string } };
            if (res.statusCode !== 201) throw new Error(`create: ${res.statusCode}`);
            responses.set(json.data.id, now());
          })
          .catch(() => void (errors += 1)),
      );
    }
    await sleep(10);
  }
  await Promise.all(inFlight);
  return { seconds: (now() - started) / 1000, errors };
}

/** Commit-to-receipt latency (ms, ascending) of each arrival that belongs to one of these creates. */
export function commitToReceipt(arrivals: ReadonlyArray<{ rowId: string; at: number }>, responses: ReadonlyMap<string, number>): number[] {
  return arrivals
    .filter((arrival) => responses.has(arrival.rowId))
    .map((arrival) => arrival.at - (responses.get(arrival.rowId) as number))
    .sort((a, b) => a - b);
}
