import { randomUUID } from 'node:crypto';
import type { NatsConnection } from 'nats';
import { WebhooksApiConfig } from '../webhooks.config';
import { SubscriptionChanges } from '../webhooks/subscription-changes';
import type { WebhooksRepository } from '../webhooks/webhooks.repository';
import { ActiveSubscriptions } from './active-subscriptions';
import { WebhookAims } from './webhook-aims';

type Row = Awaited<ReturnType<WebhooksRepository['activeSubscriptions']>>[number];

/** Core NATS as far as these two use it: publish hands the message to the subscribers' callbacks; statuses are pushed by the spec. */
function fakeNats() {
  const callbacks = new Map<string, Array<(error: Error | null, message: { string(): string }) => void>>();
  const statuses: Array<{ type: string }> = [];
  let wake: (() => void) | undefined;
  const nc = {
    subscribe: (subject: string, options: { callback: (error: Error | null, message: { string(): string }) => void }) => {
      callbacks.set(subject, [...(callbacks.get(subject) ?? []), options.callback]);
      return { unsubscribe: () => callbacks.delete(subject) };
    },
    publish: (subject: string, payload: string) => {
      for (const callback of callbacks.get(subject) ?? []) callback(null, { string: () => payload });
    },
    flush: async () => undefined,
    status: () => ({
      async *[Symbol.asyncIterator]() {
        for (;;) {
          while (statuses.length > 0) yield statuses.shift() as { type: string };
          await new Promise<void>((resolve) => (wake = resolve));
        }
      },
    }),
  };
  const pushStatus = async (type: string) => {
    statuses.push({ type });
    wake?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { nc: nc as unknown as NatsConnection, pushStatus };
}

/** The webhooks table as the query answers it, with the queries counted and one of them holdable mid-way. */
function fakeWebhooks() {
  const rows: Row[] = [];
  const asked: string[][] = [];
  let hold: Promise<void> | undefined;
  const repository = {
    activeSubscriptions: async (organizationIds: string[]) => {
      asked.push([...organizationIds]);
      const answer = rows.filter((row) => organizationIds.includes(row.organization_id)).map((row) => ({ ...row }));
      await hold;
      return answer;
    },
  };
  const holdNext = () => {
    let release = () => undefined as void;
    hold = new Promise<void>((resolve) => (release = resolve));
    return () => {
      hold = undefined;
      release();
    };
  };
  return { repository: repository as unknown as WebhooksRepository, rows, asked, holdNext };
}

function setUp(ttlMs = 60_000) {
  const { nc, pushStatus } = fakeNats();
  const webhooks = fakeWebhooks();
  const config = Object.assign(new WebhooksApiConfig(), { WEBHOOK_SUBSCRIPTIONS_TTL_MS: ttlMs });
  const active = new ActiveSubscriptions(nc, webhooks.repository, new WebhookAims(), config);
  active.onModuleInit();
  const changes = new SubscriptionChanges(nc);
  const hook = (organizationId: string): Row => {
    const row = { id: randomUUID(), organization_id: organizationId, events: ['member.joined'], table_ids: null, aim: null };
    webhooks.rows.push(row);
    return row;
  };
  const idsFor = async (organizationId: string) => [...((await active.of([organizationId])).get(organizationId)?.webhooksFor({ eventType: 'member.joined', tableId: null }, {}) ?? [])];
  return { active, changes, webhooks, hook, idsFor, pushStatus };
}

describe('ActiveSubscriptions: each organization’s webhooks, held between batches', () => {
  const [orgA, orgB] = [randomUUID(), randomUUID()];

  it('reads the organizations it does not hold in one query, and holds them, those without webhooks too', async () => {
    const { active, webhooks, hook } = setUp();
    const a = hook(orgA);
    const batch = await active.of([orgA, orgB]);
    expect(batch.get(orgA)?.webhooksFor({ eventType: 'member.joined', tableId: null }, {})).toEqual([a.id]);
    expect(batch.get(orgB)?.webhooksFor({ eventType: 'member.joined', tableId: null }, {})).toEqual([]);
    await active.of([orgA, orgB]);
    await active.of([orgB]);
    expect(webhooks.asked).toEqual([[orgA, orgB]]);
  });

  it('reads an organization again once a change of its webhooks is announced, and only that one', async () => {
    const { changes, webhooks, hook, idsFor } = setUp();
    const first = hook(orgA);
    expect(await idsFor(orgA)).toEqual([first.id]);
    expect(await idsFor(orgB)).toEqual([]);
    const second = hook(orgA);
    await changes.announce(orgA);
    expect(await idsFor(orgA)).toEqual([first.id, second.id]);
    expect(await idsFor(orgB)).toEqual([]);
    expect(webhooks.asked).toEqual([[orgA], [orgB], [orgA]]);
  });

  it('serves a read that an announcement overtook to its own batch, and keeps it for no other', async () => {
    const { active, changes, webhooks, hook, idsFor } = setUp();
    const first = hook(orgA);
    const release = webhooks.holdNext();
    const reading = idsFor(orgA);
    // The query's answer was taken before this change committed; the announcement arrives while it is under way.
    hook(orgA);
    await changes.announce(orgA);
    release();
    expect(await reading).toEqual([first.id]);
    expect(await idsFor(orgA)).toHaveLength(2);
    expect(webhooks.asked).toHaveLength(2);
    await active.of([orgA]);
    expect(webhooks.asked).toHaveLength(2);
  });

  it('forgets everything when the NATS connection drops or comes back, since announcements may have been lost meanwhile', async () => {
    const { webhooks, hook, idsFor, pushStatus } = setUp();
    hook(orgA);
    await idsFor(orgA);
    await pushStatus('disconnect');
    await idsFor(orgA);
    await pushStatus('reconnect');
    await idsFor(orgA);
    await pushStatus('pingTimer');
    await idsFor(orgA);
    expect(webhooks.asked).toHaveLength(3);
  });

  it('reads an organization again once the TTL is over, and for every batch with a TTL of 0', async () => {
    for (const [ttlMs, queries] of [
      [30, 2],
      [0, 3],
    ]) {
      const { webhooks, hook, idsFor } = setUp(ttlMs);
      hook(orgA);
      await idsFor(orgA);
      await idsFor(orgA);
      await new Promise((resolve) => setTimeout(resolve, 60));
      await idsFor(orgA);
      expect(webhooks.asked).toHaveLength(queries);
    }
  });
});
