import { performance } from 'node:perf_hooks';
import type { Pool } from 'undici';
import { sleep } from '../lib/bench-http';

/** Wall-clock milliseconds with sub-millisecond precision, comparable with the receiver's arrival times. */
const now = () => performance.now() + performance.timeOrigin;

/**
 * Creates rows at `rate` per second for the duration, `rowsPerRequest` at a time (one per `POST .../rows`,
 * more per `POST .../rows/batch`); keeps each row's create-response time by row id.
 */
export async function createAtRate(
  gateway: Pool,
  base: URL,
  key: string,
  tableId: string,
  rate: number,
  durationS: number,
  responses: Map<string, number>,
  rowsPerRequest = 1,
) {
  // Whole requests only: the last one must not be left waiting for rows that are never due.
  const total = Math.floor(Math.round(rate * durationS) / rowsPerRequest) * rowsPerRequest;
  const started = now();
  let issued = 0;
  let errors = 0;
  const inFlight: Promise<void>[] = [];
  const create = (first: number) => {
    const rows = Array.from({ length: rowsPerRequest }, (_, i) => ({ data: { title: `row ${first + i}` } }));
    const batch = rowsPerRequest > 1;
    return gateway
      .request({
        method: 'POST',
        path: `${base.pathname}/tables/${tableId}/rows${batch ? '/batch' : ''}`,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(batch ? { rows } : rows[0]),
      })
      .then(async (res) => {
        const json = (await res.body.json()) as { data: { id: string } | Array<{ id: string }> };
        if (res.statusCode !== 201) throw new Error(`create: ${res.statusCode}`);
        const at = now();
        for (const row of [json.data].flat()) responses.set(row.id, at);
      })
      .catch(() => void (errors += 1));
  };
  while (issued < total) {
    const due = Math.min(total, Math.floor(((now() - started) / 1000) * rate));
    for (; issued + rowsPerRequest <= due; issued += rowsPerRequest) inFlight.push(create(issued));
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
