import { randomUUID } from 'node:crypto';
import type { ManagedProcess } from '@platform/runner';
import { apiClient, createTestOrg, eventually, startProcess, testDatabaseUrl } from '@platform/testing';
import { Database } from '@platform/persistence';
import { Client } from 'pg';
import { EventStoreRepository, PRUNE_LOCK, SeriesCursor } from '../src/event-store/event-store.repository';
import { createWebhook, deliveriesOf, recoverAndWait, sleep, uniquePath, webhookScene } from './webhook-fixtures';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** The stack runs with WEBHOOK_RETRY_DELAYS=200ms,400ms,600ms,800ms,1s. */
const DELAYS = [200, 400, 600, 800, 1_000];

describe('event store', () => {
  const scene = webhookScene({ publisher: true });
  let db: Client;

  beforeAll(async () => {
    db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
  });

  afterAll(async () => {
    await db.end();
  });

  it('keeps every event with the exact bytes that are signed, and one series per subscribed active webhook', async () => {
    const path = uniquePath('store');
    const subscribed = await createWebhook(scene.api, scene.receiver.url(path), ['row.created']);
    const elsewhere = await createWebhook(scene.api, scene.receiver.url(uniquePath('store-other')), ['table.created']);
    const disabled = await createWebhook(scene.api, scene.receiver.url(uniquePath('store-disabled')), ['row.created']);
    await scene.api.patch(`/webhooks/${disabled.id}`, { active: false });
    const table = randomUUID();
    const event = await scene.events.publish(scene.orgId, 'row.created', { table_id: table, row_id: randomUUID(), row_data: { note: 'Zoë ✓ \u2028' } });
    const unwanted = await scene.events.publish(scene.orgId, 'member.joined', { member_id: randomUUID(), email: 'a@example.com', role: 'member' });
    const [hit] = await eventually(() => {
      expect(scene.receiver.at(path)).toHaveLength(1);
      return scene.receiver.at(path);
    });
    const stored = await eventually(async () => {
      const { rows } = await db.query(`SELECT id, organization_id, event_type, table_id, body FROM webhooks.events WHERE id = ANY($1::uuid[]) ORDER BY event_type DESC`, [
        [event.id, unwanted.id],
      ]);
      expect(rows).toHaveLength(2);
      return rows;
    });
    expect(Buffer.from(stored[0].body, 'utf8').equals(hit.body)).toBe(true);
    expect(stored[0]).toMatchObject({ id: event.id, organization_id: scene.orgId, event_type: 'row.created', table_id: table });
    expect(stored[1]).toMatchObject({ id: unwanted.id, event_type: 'member.joined', table_id: null });
    await eventually(async () => {
      const { rows: series } = await db.query(`SELECT webhook_id, trigger, attempts, finished_at FROM webhooks.delivery_series WHERE event_id = $1`, [event.id]);
      expect(series).toEqual([{ webhook_id: subscribed.id, trigger: 'event', attempts: 1, finished_at: expect.any(Date) }]);
    });
    const { rows: others } = await db.query(`SELECT 1 FROM webhooks.delivery_series WHERE webhook_id = ANY($1::uuid[])`, [[elsewhere.id, disabled.id]]);
    expect(others).toHaveLength(0);
    const [delivery] = await deliveriesOf(scene.api, subscribed.id);
    expect(delivery).toMatchObject({ event_id: event.id, success: true, next_retry_at: null });
  });

  it('keeps a message whose organization has no active webhook whole, reads it one event per row, and recovers its events', async () => {
    const quiet = await createTestOrg();
    const quietApi = apiClient(quiet.key);
    const path = uniquePath('store-whole');
    const hook = await createWebhook(quietApi, scene.receiver.url(path), ['row.created']);
    expect((await quietApi.patch(`/webhooks/${hook.id}`, { active: false })).status).toBe(200);
    const since = new Date().toISOString();
    const table = randomUUID();
    const together = await scene.events.publishTogether(quiet.orgId, 'row.created', [{ table_id: table, n: 1 }, { table_id: table, note: 'Zoë ✓ \u2028' }]);
    const single = await scene.events.publish(quiet.orgId, 'row.created', { table_id: 'not a table' });
    const sent = [...together, single].sort((a, b) => a.id.localeCompare(b.id));
    const readApart = async () =>
      (await db.query(`SELECT id, organization_id, event_type, table_id, body FROM webhooks.stored_events WHERE organization_id = $1 ORDER BY id`, [quiet.orgId])).rows;
    const stored = await eventually(async () => {
      const rows = await readApart();
      expect(rows).toHaveLength(3);
      return rows;
    });
    expect(stored).toEqual(
      sent.map((event) => ({ id: event.id, organization_id: quiet.orgId, event_type: 'row.created', table_id: event === single ? null : table, body: JSON.stringify(event) })),
    );
    const count = async (table: string) => (await db.query(`SELECT count(*)::int AS n FROM webhooks.${table} WHERE organization_id = $1`, [quiet.orgId])).rows[0].n;
    expect({ messages: await count('event_messages'), events: await count('events') }).toEqual({ messages: 2, events: 0 });

    // A message handed over again (its fan-out died before the ack) is kept once.
    const source = new Database({ url: testDatabaseUrl(), poolSize: 1, organizationShare: 1, applicationName: 'event-store-spec' });
    try {
      const again = { id: randomUUID(), organizationId: quiet.orgId, body: JSON.stringify([]) };
      await new EventStoreRepository(source).storeMessages([again, again]);
      await new EventStoreRepository(source).storeMessages([again]);
      expect(await count('event_messages')).toBe(3);
    } finally {
      await source.close();
    }

    expect(scene.receiver.at(path)).toHaveLength(0);
    expect((await quietApi.patch(`/webhooks/${hook.id}`, { active: true })).status).toBe(200);
    expect((await recoverAndWait(quietApi, hook.id, { since })).queued).toBe(3);
    await eventually(() => expect(scene.receiver.at(path).map((hit) => hit.body.toString('utf8')).sort()).toEqual(stored.map((event) => event.body).sort()));
    // Each event is copied to a row of its own for its series, and read once.
    expect(await readApart()).toEqual(stored);
    expect(await count('events')).toBe(3);
    await eventually(async () => expect((await deliveriesOf(quietApi, hook.id, '?success=true')).length).toBe(3));
    expect((await recoverAndWait(quietApi, hook.id, { since })).queued).toBe(0);
  });

  it('keeps one series for an event handed over twice', async () => {
    const path = uniquePath('store-twice');
    const hook = await createWebhook(scene.api, scene.receiver.url(path), ['table.updated']);
    const event = await scene.events.publish(scene.orgId, 'table.updated', { table_id: randomUUID(), table_name: 'T', table_slug: 't' });
    await eventually(() => expect(scene.receiver.at(path)).toHaveLength(1));
    await scene.events.publishAs(event, randomUUID());
    await sleep(1_500);
    expect(scene.receiver.at(path)).toHaveLength(1);
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM webhooks.delivery_series WHERE event_id = $1 AND webhook_id = $2`, [event.id, hook.id]);
    expect(rows[0].n).toBe(1);
  });

  it('gives each failed attempt its next_retry_at, none to the last, and filters the list by success and event type', async () => {
    const path = uniquePath('store-retry');
    scene.receiver.on(path, (_request, count) => (count <= 2 ? { status: 503 } : { status: 200 }));
    const hook = await createWebhook(scene.api, scene.receiver.url(path), ['row.updated', 'row.deleted']);
    const failing = uniquePath('store-exhausted');
    scene.receiver.on(failing, () => ({ status: 500 }));
    const exhausted = await createWebhook(scene.api, scene.receiver.url(failing), ['row.deleted']);
    await scene.events.publish(scene.orgId, 'row.updated');
    const deleted = await scene.events.publish(scene.orgId, 'row.deleted');
    await eventually(async () => expect((await deliveriesOf(scene.api, hook.id)).filter((d) => d.success)).toHaveLength(2), { timeoutMs: 20_000 });
    const all = await deliveriesOf(scene.api, hook.id);
    for (const delivery of all) {
      if (delivery.success) expect(delivery.next_retry_at).toBeNull();
      else {
        expect(delivery.next_retry_at).toMatch(ISO);
        const wait = Date.parse(delivery.next_retry_at) - Date.parse(delivery.created_at);
        expect(wait).toBeGreaterThanOrEqual(DELAYS[delivery.attempt - 1]);
        expect(wait).toBeLessThan(DELAYS[delivery.attempt - 1] + 2_500);
      }
    }
    const failed = await deliveriesOf(scene.api, hook.id, '?success=false');
    expect(failed.length).toBe(all.filter((d) => !d.success).length);
    expect(failed.length).toBeGreaterThanOrEqual(1);
    expect(failed.every((d) => !d.success)).toBe(true);
    expect((await deliveriesOf(scene.api, hook.id, '?success=true')).map((d) => d.success)).toEqual([true, true]);
    const byType = await scene.api.get(`/webhooks/${hook.id}/deliveries?event_type=row.deleted&success=true`);
    expect(byType.body.data).toEqual([expect.objectContaining({ event_id: deleted.id, event_type: 'row.deleted', success: true })]);
    expect(byType.body.pagination).toEqual({ page: 1, limit: 50, total: 1 });
    expect(await deliveriesOf(scene.api, hook.id, '?event_type=table.created')).toEqual([]);

    const last = await eventually(async () => {
      const list = await deliveriesOf(scene.api, exhausted.id);
      expect(list).toHaveLength(6);
      return list;
    }, { timeoutMs: 20_000 });
    expect(last.map((d) => d.next_retry_at === null)).toEqual([true, false, false, false, false, false]);
  });

  it.each([
    ['success=yes', 'success'],
    ['success=1', 'success'],
    ['event_type=row.exploded', 'event_type'],
    ['colour=red', 'colour'],
  ])('refuses ?%s with VALIDATION_ERROR naming the field', async (query, field) => {
    const hook = await createWebhook(scene.api, scene.receiver.url(uniquePath('store-filter')), ['row.created']);
    const response = await scene.api.get(`/webhooks/${hook.id}/deliveries?${query}`);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR', details: { field } } });
  });

  it('pages through owed series that share one due time to the microsecond, each once (the reconciler)', async () => {
    // Long overdue, so that no other spec's series is among them; a batch's series share their due time so.
    const due = '2000-01-01 00:00:00.123456+00';
    const hook = await createWebhook(scene.api, scene.receiver.url(uniquePath('reconcile')), ['row.created']);
    const ids = Array.from({ length: 1_200 }, () => randomUUID());
    await db.query(`INSERT INTO webhooks.events (id, organization_id, event_type, body) SELECT id, $2, 'row.created', '{}' FROM unnest($1::uuid[]) AS id`, [ids, scene.orgId]);
    // Each series named like its event.
    await db.query(`INSERT INTO webhooks.delivery_series (id, webhook_id, event_id, trigger, due_at) SELECT id, $2, id, 'event', $3 FROM unnest($1::uuid[]) AS id`, [
      ids,
      hook.id,
      due,
    ]);
    const source = new Database({ url: testDatabaseUrl(), poolSize: 1, organizationShare: 1, applicationName: 'event-store-spec' });
    try {
      const store = new EventStoreRepository(source);
      const seen: string[] = [];
      let after: SeriesCursor | undefined;
      for (let page = 0; page < 10; page += 1) {
        const owed = await store.overdueSeries(new Date('2000-01-02T00:00:00Z'), after, 500);
        seen.push(...owed.map((series) => series.id));
        if (owed.length < 500) break;
        after = owed[owed.length - 1].cursor;
      }
      expect(seen).toHaveLength(ids.length);
      expect(new Set(seen)).toEqual(new Set(ids));
    } finally {
      await db.query(`DELETE FROM webhooks.events WHERE id = ANY($1::uuid[])`, [ids]);
      await source.close();
    }
  });

  describe('retention', () => {
    const started: ManagedProcess[] = [];
    let source: Database;
    afterAll(async () => {
      await Promise.all(started.map((process) => process.stop()));
      await source?.close();
    });

    async function storeEvent(ageDays: number): Promise<{ eventId: string; deliveryId: string; webhookId: string }> {
      const hook = await createWebhook(scene.api, scene.receiver.url(uniquePath('retention')), ['row.created']);
      const eventId = randomUUID();
      const deliveryId = randomUUID();
      const at = new Date(Date.now() - ageDays * 86_400_000);
      await db.query(`INSERT INTO webhooks.events (id, organization_id, event_type, body, received_at) VALUES ($1, $2, 'row.created', '{}', $3)`, [eventId, scene.orgId, at]);
      // A message kept whole as old, named like the event.
      await db.query(`INSERT INTO webhooks.event_messages (id, organization_id, body, received_at) VALUES ($1, $2, '[]', $3)`, [eventId, scene.orgId, at]);
      await db.query(`INSERT INTO webhooks.delivery_series (id, webhook_id, event_id, trigger, finished_at, created_at) VALUES ($1, $2, $3, 'event', $4, $4)`, [
        randomUUID(),
        hook.id,
        eventId,
        at,
      ]);
      await db.query(
        `INSERT INTO webhooks.deliveries (id, webhook_id, organization_id, event_id, event_type, attempt, status_code, duration_ms, success, created_at)
         VALUES ($1, $2, $3, $4, 'row.created', 1, 200, 5, true, $5)`,
        [deliveryId, hook.id, scene.orgId, eventId, at],
      );
      return { eventId, deliveryId, webhookId: hook.id };
    }
    const kept = async (stored: { eventId: string; deliveryId: string }) => {
      const { rows } = await db.query(
        `SELECT (SELECT count(*)::int FROM webhooks.events WHERE id = $1) AS events,
                (SELECT count(*)::int FROM webhooks.event_messages WHERE id = $1) AS messages,
                (SELECT count(*)::int FROM webhooks.delivery_series WHERE event_id = $1) AS series,
                (SELECT count(*)::int FROM webhooks.deliveries WHERE id = $2) AS deliveries`,
        [stored.eventId, stored.deliveryId],
      );
      return rows[0];
    };

    it('leaves pruning to the replica that holds the lock, and prunes nothing younger than the cutoff', async () => {
      source = new Database({ url: testDatabaseUrl(), poolSize: 2, organizationShare: 1, applicationName: 'event-store-spec' });
      const store = new EventStoreRepository(source);
      const old = await storeEvent(10);
      const recent = await storeEvent(8);
      const cutoff = new Date(Date.now() - 9 * 86_400_000);
      const holder = new Client({ connectionString: testDatabaseUrl() });
      await holder.connect();
      try {
        await holder.query(`SELECT pg_advisory_lock(hashtext($1))`, [PRUNE_LOCK]);
        expect(await store.pruneBatch(cutoff, 5_000)).toBeUndefined();
        expect(await kept(old)).toEqual({ events: 1, messages: 1, series: 1, deliveries: 1 });
        await holder.query(`SELECT pg_advisory_unlock(hashtext($1))`, [PRUNE_LOCK]);
        const pruned = await store.pruneBatch(cutoff, 5_000);
        expect(pruned?.events).toBeGreaterThanOrEqual(1);
        expect(pruned?.messages).toBeGreaterThanOrEqual(1);
        expect(pruned?.deliveries).toBeGreaterThanOrEqual(1);
        expect(await kept(old)).toEqual({ events: 0, messages: 0, series: 0, deliveries: 0 });
        expect(await kept(recent)).toEqual({ events: 1, messages: 1, series: 1, deliveries: 1 });
      } finally {
        await holder.end();
      }
    });

    it('prunes events, messages kept whole, their series and delivery records past EVENT_RETENTION_DAYS in the background at start-up', async () => {
      const old = await storeEvent(31);
      const recent = await storeEvent(29);
      started.push(await startProcess('webhooks', { WEBHOOK_CONSUMER_ENABLED: 'false', EVENT_RETENTION_DAYS: '30' }));
      await eventually(async () => expect(await kept(old)).toEqual({ events: 0, messages: 0, series: 0, deliveries: 0 }), { timeoutMs: 30_000 });
      expect(await kept(recent)).toEqual({ events: 1, messages: 1, series: 1, deliveries: 1 });
      expect(await deliveriesOf(scene.api, old.webhookId)).toEqual([]);
      expect(await deliveriesOf(scene.api, recent.webhookId)).toHaveLength(1);
    }, 120_000);
  });
});
