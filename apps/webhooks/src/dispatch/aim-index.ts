import { comparable, FieldSlot } from './row-filter-match';
import type { Need } from './row-filter-needs';
import { AimedEvent, aimedEvent, isRowEventKind, WebhookAim } from './webhook-aim';

/** A webhook as an aim index holds it; undefined aim: it takes every event it subscribes to. */
export interface AimedSubscriber {
  id: string;
  aim: WebhookAim | undefined;
}

/** Webhooks with one compiled aim (the same settings): its answer for an event is theirs. */
interface AimGroup {
  aim: WebhookAim;
  webhookIds: string[];
  /** The lookup that last tested it: a group that several needs of one row lead to is tested once. */
  mark: number;
}

/** The groups whose needs name one field, by the value of that field each needs. */
interface ByValue<K> {
  slot: FieldSlot;
  groups: Map<K, AimGroup[]>;
}

function add<K>(lists: Map<K, AimGroup[]>, key: K, group: AimGroup): void {
  const list = lists.get(key);
  if (list === undefined) lists.set(key, [group]);
  else if (!list.includes(group)) list.push(group);
}

function slotOf<T extends { slot: FieldSlot }>(entries: T[], slot: FieldSlot, make: () => T): T {
  let entry = entries.find((candidate) => candidate.slot === slot);
  if (entry === undefined) {
    entry = make();
    entries.push(entry);
  }
  return entry;
}

/** A field with up to this many prefixes has its row's text compared with each rather than cut to look them up. */
const FEW_PREFIXES = 4;

/** One event's pass through an index: each group tested at most once, the webhooks let through gathered. */
class AimTests {
  constructor(
    private readonly event: AimedEvent,
    private readonly mark: number,
    /** The webhooks every event goes to; copied only once another is added. */
    public matched: readonly string[],
  ) {}

  all(groups: readonly AimGroup[] | undefined): void {
    if (groups === undefined) return;
    for (const group of groups) {
      if (group.mark === this.mark) continue;
      group.mark = this.mark;
      if (group.aim.allows(this.event)) this.matched = [...this.matched, ...group.webhookIds];
    }
  }
}

/**
 * The aims of the webhooks that want one kind of event of one table, made to answer which of them let
 * an event through without testing each: webhooks that share an aim are tested once, and an aim whose
 * filter needs a field's value (or prefix) is tested only for rows that have it, looked up in a Map. The
 * rest (no filter, or one without a short list of needs) are tested for every row. The answer is the
 * one `aimAllows` gives for each webhook; only the work differs.
 */
export class AimIndex {
  /** Webhooks every event goes to: without an aim, or all of them when the kind is no row event. */
  private readonly always: string[] = [];
  private readonly tested: AimGroup[] = [];
  private readonly values: ByValue<unknown>[] = [];
  private readonly instants: ByValue<number>[] = [];
  /**
   * By field, then by the length of the prefixes, the lowercased prefix; a field with few prefixes also
   * has them listed, to be compared with the row's text in place instead of cutting it to look them up.
   */
  private readonly prefixes: Array<{
    slot: FieldSlot;
    byLength: Array<{ length: number; groups: Map<string, AimGroup[]> }>;
    listed?: Array<{ prefix: string; groups: AimGroup[] }>;
  }> = [];
  private aimed = false;
  private mark = 0;

  constructor(
    subscribers: readonly AimedSubscriber[],
    private readonly kind: string,
  ) {
    const groups = new Map<WebhookAim, AimGroup>();
    const rowEvents = isRowEventKind(kind);
    for (const { id, aim } of subscribers) {
      if (aim === undefined || !rowEvents) {
        this.always.push(id);
        continue;
      }
      const group = groups.get(aim);
      if (group) group.webhookIds.push(id);
      else groups.set(aim, { aim, webhookIds: [id], mark: 0 });
    }
    for (const group of groups.values()) this.index(group);
    for (const field of this.prefixes) {
      const listed = field.byLength.flatMap(({ groups }) => [...groups].map(([prefix, list]) => ({ prefix, groups: list })));
      if (listed.length <= FEW_PREFIXES) field.listed = listed;
    }
    this.aimed = groups.size > 0;
  }

  /** The webhooks whose aims let this event (of the index's kind and table) through. */
  matching(data: unknown): readonly string[] {
    if (!this.aimed) return this.always;
    const event = aimedEvent(this.kind, data);
    const row = event.row;
    // Without a row no aim lets a row event through.
    if (row === undefined) return this.always;
    // Allocates nothing for an event no aim lets through, the usual case of a filtered webhook.
    const tests = new AimTests(event, (this.mark += 1), this.always);
    tests.all(this.tested);
    for (const { slot, groups } of this.values) {
      const value = row.at(slot);
      if (value !== undefined) tests.all(groups.get(value));
    }
    for (const { slot, groups } of this.instants) {
      const instant = comparable('datetime', row.at(slot));
      if (instant !== undefined) tests.all(groups.get(instant as number));
    }
    for (const { slot, byLength, listed } of this.prefixes) {
      const value = row.at(slot);
      if (typeof value !== 'string') continue;
      const text = row.lower(slot, value);
      if (listed) {
        for (const { prefix, groups } of listed) if (text.startsWith(prefix)) tests.all(groups);
      } else {
        for (const { length, groups } of byLength) if (text.length >= length) tests.all(groups.get(text.slice(0, length)));
      }
    }
    return tests.matched;
  }

  private index(group: AimGroup): void {
    const needs = group.aim.needs;
    if (needs === undefined) {
      this.tested.push(group);
      return;
    }
    // No need at all: the aim lets no row through, and is never looked up.
    for (const need of needs) this.indexNeed(need, group);
  }

  private indexNeed(need: Need, group: AimGroup): void {
    switch (need.kind) {
      case 'value':
        add(slotOf(this.values, need.slot, () => ({ slot: need.slot, groups: new Map() })).groups, need.value, group);
        return;
      case 'instant':
        add(slotOf(this.instants, need.slot, () => ({ slot: need.slot, groups: new Map() })).groups, need.value, group);
        return;
      case 'prefix': {
        const field = slotOf(this.prefixes, need.slot, () => ({ slot: need.slot, byLength: [] }));
        let byLength = field.byLength.find((entry) => entry.length === need.prefix.length);
        if (byLength === undefined) {
          byLength = { length: need.prefix.length, groups: new Map() };
          field.byLength.push(byLength);
        }
        add(byLength.groups, need.prefix, group);
      }
    }
  }
}
