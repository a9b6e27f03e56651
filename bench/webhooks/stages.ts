import { Client } from 'pg';
import { percentile, round } from '../lib/bench-http';

/**
 * Where a delivery's time goes, from the stack's own records: the event's timestamp (written in the
 * tables transaction), the create's response at the client, the event's arrival in the event store (the
 * fan-out), the attempt's start (the delivery worker), and the request's arrival at the receiver.
 * Each stage is printed as p50 / p99 in ms over the rows given.
 */
export async function deliveryStages(
  databaseUrl: string,
  webhookPath: string,
  responses: ReadonlyMap<string, number>,
  arrivals: ReadonlyArray<{ rowId: string; at: number; path: string }>,
): Promise<Record<string, string>> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ row_id: string; event_at: string; stored_at: string; sent_at: string }>(
      `SELECT e.body::jsonb -> 'data' ->> 'row_id' AS row_id,
              extract(epoch FROM (e.body::jsonb ->> 'timestamp')::timestamptz) * 1000 AS event_at,
              extract(epoch FROM e.received_at) * 1000 AS stored_at,
              extract(epoch FROM min(d.created_at)) * 1000 AS sent_at
         FROM webhooks.events e
         JOIN webhooks.deliveries d ON d.event_id = e.id
         JOIN webhooks.webhooks w ON w.id = d.webhook_id
        WHERE w.url LIKE $1
        GROUP BY e.id`,
      [`%${webhookPath}`],
    );
    const arrived = new Map(arrivals.filter((arrival) => arrival.path === webhookPath).map((arrival) => [arrival.rowId, arrival.at]));
    const stages: Record<string, number[]> = { 'event → response': [], 'event → stored': [], 'stored → sent': [], 'sent → arrived': [], 'event → arrived': [] };
    for (const row of rows) {
      const response = responses.get(row.row_id);
      const arrival = arrived.get(row.row_id);
      if (response === undefined || arrival === undefined) continue;
      const [event, stored, sent] = [Number(row.event_at), Number(row.stored_at), Number(row.sent_at)];
      stages['event → response'].push(response - event);
      stages['event → stored'].push(stored - event);
      stages['stored → sent'].push(sent - stored);
      stages['sent → arrived'].push(arrival - sent);
      stages['event → arrived'].push(arrival - event);
    }
    return Object.fromEntries(
      Object.entries(stages).map(([stage, values]) => {
        values.sort((a, b) => a - b);
        return [stage, `${round(percentile(values, 50), 1)} / ${round(percentile(values, 99), 1)} ms (${values.length})`];
      }),
    );
  } finally {
    await db.end();
  }
}
