import { randomUUID } from 'node:crypto';
import { generatedAim, generatedRow, Generator, SLUG_LIST } from '../../test/generated-aims';
import { SubscriptionIndex } from './subscription-index';
import { aimAllows, aimedEvent, AimSettings, compileAim, WebhookAim } from './webhook-aim';
import { WebhookAims } from './webhook-aims';
import { wantsEvent } from './webhook-subscription';

const TABLES = [randomUUID(), randomUUID(), randomUUID()];
const KINDS = ['row.created', 'row.updated', 'row.deleted', 'table.updated', 'member.joined'];

interface Webhook {
  id: string;
  events: string[];
  table_ids: string[] | null;
  settings: AimSettings | null;
}

/** The fan-out's rule before the index: every webhook asked, `wantsEvent` then `aimAllows`, each aim compiled on its own. */
function plainMatch(webhooks: Webhook[], eventType: string, tableId: string | null, data: unknown): string[] {
  const aimed = aimedEvent(eventType, data);
  return webhooks
    .filter((webhook) => wantsEvent(webhook, { eventType, tableId }) && aimAllows(webhook.settings === null ? undefined : compileAim(webhook.settings), aimed))
    .map((webhook) => webhook.id);
}

/** Aims as the fan-out compiles them (one object for equal settings), each test of a row counted. */
function countedAims() {
  const aims = new WebhookAims();
  const counted = new Map<WebhookAim, WebhookAim>();
  const calls = { allows: 0 };
  const aimOf = (webhook: Webhook): WebhookAim | undefined => {
    const aim = aims.aimOf({ id: webhook.id, aim: webhook.settings && JSON.stringify(webhook.settings) });
    if (aim === undefined) return undefined;
    let wrapped = counted.get(aim);
    if (wrapped === undefined) {
      wrapped = { needs: aim.needs, allows: (event) => ((calls.allows += 1), aim.allows(event)) };
      counted.set(aim, wrapped);
    }
    return wrapped;
  };
  return { aimOf, calls };
}

const indexOf = (webhooks: Webhook[], aimOf: (webhook: Webhook) => WebhookAim | undefined) =>
  new SubscriptionIndex(webhooks.map((webhook) => ({ id: webhook.id, events: webhook.events, table_ids: webhook.table_ids, aim: aimOf(webhook) })));

const sorted = (ids: readonly string[]) => [...ids].sort();

function generatedWebhooks(g: Generator, count: number): Webhook[] {
  // Fewer aims than webhooks: some webhooks share their settings, as the fan-out's grouping expects.
  const aims = Array.from({ length: Math.ceil(count / 3) }, () => generatedAim(g));
  return Array.from({ length: count }, () => ({
    id: randomUUID(),
    events: g.some(KINDS),
    table_ids: g.chance(0.4) ? null : g.some(TABLES, 2),
    settings: g.chance(0.25) ? null : g.chance(0.5) ? g.pick(aims) : generatedAim(g),
  }));
}

function generatedData(g: Generator, tableId: string | null): unknown {
  const roll = g.next();
  if (roll < 0.04) return null;
  if (roll < 0.08) return { table_id: tableId };
  if (roll < 0.1) return { table_id: tableId, row_data: [1] };
  return { table_id: tableId, row_data: generatedRow(g), changed_fields: g.chance(0.8) ? g.some(SLUG_LIST) : 'stage' };
}

describe('SubscriptionIndex: which webhooks an event goes to', () => {
  it('answers what wantsEvent and aimAllows answer for every webhook, over generated webhooks and events', () => {
    const mismatches: unknown[] = [];
    let delivered = 0;
    let aimedPairs = 0;
    const tests = { plain: 0, indexed: 0 };
    for (let seed = 1; seed <= 8; seed += 1) {
      const g = new Generator(seed);
      const webhooks = generatedWebhooks(g, 60);
      const { aimOf, calls } = countedAims();
      const index = indexOf(webhooks, aimOf);
      for (let i = 0; i < 500; i += 1) {
        const eventType = g.chance(0.7) ? g.pick(KINDS.slice(0, 3)) : g.chance(0.9) ? g.pick(KINDS) : 'row.archived';
        const tableId = g.chance(0.9) ? g.pick(TABLES) : null;
        const data = generatedData(g, tableId);
        const expected = sorted(plainMatch(webhooks, eventType, tableId, data));
        const actual = sorted(index.webhooksFor({ eventType, tableId }, data));
        if (JSON.stringify(actual) !== JSON.stringify(expected)) mismatches.push({ seed, eventType, tableId, data, expected, actual });
        delivered += expected.length;
        if (eventType.startsWith('row.')) {
          const wanting = webhooks.filter((webhook) => webhook.settings !== null && wantsEvent(webhook, { eventType, tableId }));
          aimedPairs += wanting.length;
          tests.plain += wanting.length;
        }
      }
      tests.indexed += calls.allows;
    }
    expect(mismatches.slice(0, 3)).toEqual([]);
    // Not vacuous: events went out, aimed webhooks were asked, and the index tested far fewer aims than the plain loop.
    expect(delivered).toBeGreaterThan(10_000);
    expect(aimedPairs).toBeGreaterThan(20_000);
    expect(tests.indexed).toBeLessThan(tests.plain / 2);
  });

  it('gives a webhook narrowed to tables their row and table events, and every kind else; a webhook of every table all', () => {
    const [a, b] = TABLES;
    const { aimOf } = countedAims();
    const narrowed: Webhook = { id: 'narrowed', events: ['row.created', 'member.joined'], table_ids: [a], settings: null };
    const everywhere: Webhook = { id: 'everywhere', events: ['row.created'], table_ids: null, settings: null };
    const index = indexOf([narrowed, everywhere], aimOf);
    expect(sorted(index.webhooksFor({ eventType: 'row.created', tableId: a }, {}))).toEqual(['everywhere', 'narrowed']);
    expect(index.webhooksFor({ eventType: 'row.created', tableId: b }, {})).toEqual(['everywhere']);
    expect(index.webhooksFor({ eventType: 'row.created', tableId: null }, {})).toEqual(['everywhere']);
    expect(index.webhooksFor({ eventType: 'member.joined', tableId: null }, {})).toEqual(['narrowed']);
    expect(index.webhooksFor({ eventType: 'row.deleted', tableId: a }, {})).toEqual([]);
  });

  it('tests an aim that webhooks share once per event, and not at all for a row that lacks what its filter needs', () => {
    const [table] = TABLES;
    const { aimOf, calls } = countedAims();
    const won: AimSettings = { filter: { stage: 'won' }, filter_fields: { stage: 'select' }, watch_fields: null, filter_error: null };
    const deals: AimSettings = { filter: { title: { starts_with: 'Deal' }, stage: { ne: 'lost' } }, filter_fields: { title: 'text', stage: 'select' }, watch_fields: null, filter_error: null };
    const webhooks: Webhook[] = [
      ...Array.from({ length: 10 }, (_, i) => ({ id: `won-${i}`, events: ['row.created'], table_ids: [table], settings: { ...won } })),
      ...Array.from({ length: 10 }, (_, i) => ({ id: `deals-${i}`, events: ['row.created'], table_ids: [table], settings: { ...deals } })),
    ];
    const index = indexOf(webhooks, aimOf);
    const event = (row: Record<string, unknown>) => sorted(index.webhooksFor({ eventType: 'row.created', tableId: table }, { table_id: table, row_data: row }));

    expect(event({ title: 'deal 7', stage: 'open' })).toEqual(sorted(webhooks.slice(10).map((webhook) => webhook.id)));
    expect(calls.allows).toBe(1);
    expect(event({ title: 'DEAL 8', stage: 'won' })).toEqual(sorted(webhooks.map((webhook) => webhook.id)));
    expect(calls.allows).toBe(3);
    expect(event({ title: 'other', stage: 'open' })).toEqual([]);
    expect(calls.allows).toBe(3);
  });
});

describe('SubscriptionIndex.isEmpty', () => {
  it('is true only for an organization without an active webhook', () => {
    expect(new SubscriptionIndex([]).isEmpty).toBe(true);
    const one = new SubscriptionIndex([{ id: randomUUID(), events: ['member.joined'], table_ids: null, aim: undefined }]);
    expect(one.isEmpty).toBe(false);
    expect(one.webhooksFor({ eventType: 'member.joined', tableId: null }, {})).toHaveLength(1);
  });
});
