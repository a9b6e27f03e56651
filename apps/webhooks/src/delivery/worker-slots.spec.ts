import { eventually } from '@platform/testing';
import type { WebhooksWorkerConfig } from '../webhooks.config';
import type { DeliveryQueue } from './delivery-queue';
import type { AcquireMode, InFlightLeases, LeaseAnswer, ReleaseAnswer, SlotListener, SlotOutcome } from './in-flight-leases';
import { SlotAnswer, SPARE_MS, WorkerSlots } from './worker-slots';

const MAX = 2;
const SHARE = 3;
const STALL_MS = 1_000;

/**
 * Redis's side, kept in memory: `max` leases per webhook; a release grants its slot to the job in line
 * longest, else hands it to the named next holder.
 */
class MemoryLeases {
  readonly held = new Set<string>();
  readonly parked: string[] = [];
  readonly line: string[] = [];
  private listener?: SlotListener;
  /** Slots and releases Redis was asked for. */
  acquires = 0;
  releases = 0;
  mostHeld = 0;
  asking = 0;
  mostAsking = 0;
  /** When any worker last freed a slot (Date.now()). */
  private freedAt?: number;
  /**
   * @param grants false: every slot is held elsewhere
   * @param refusals the first asks refused all the same (another worker's attempt held the slot a moment)
   */
  constructor(
    private readonly grants: boolean,
    private refusals = 0,
    private readonly max = MAX,
  ) {}

  async listen(listener: SlotListener): Promise<void> {
    this.listener = listener;
  }

  async acquire(_webhookId: string, holder: string, _intervalMs: number, mode: AcquireMode = 'park'): Promise<LeaseAnswer> {
    this.acquires += 1;
    this.mostAsking = Math.max(this.mostAsking, (this.asking += 1));
    await new Promise((resolve) => setTimeout(resolve, 5));
    this.asking -= 1;
    if (this.held.has(holder)) return { granted: true, wanting: this.line.length };
    if (!this.grants || this.held.size >= this.max || (this.refusals -= 1) >= 0) {
      if (mode === 'want') {
        if (!this.line.includes(holder)) this.line.push(holder);
        return { granted: false, inLine: true, wanting: this.line.length };
      }
      this.leaveLine(holder);
      if (mode === 'park') this.parked.push(holder);
      return { granted: false, parked: mode === 'park', wanting: this.line.length };
    }
    this.leaveLine(holder);
    this.hold(holder);
    return { granted: true, wanting: this.line.length };
  }

  private hold(holder: string): void {
    this.held.add(holder);
    this.mostHeld = Math.max(this.mostHeld, this.held.size);
  }

  private leaveLine(holder: string): void {
    if (this.line.includes(holder)) this.line.splice(this.line.indexOf(holder), 1);
  }

  /** Another worker frees the slot `holder` held there: the job in line longest gets it, told as that worker's release would tell it. */
  releaseElsewhere(holder: string): void {
    this.held.delete(holder);
    this.freedAt = Date.now();
    const first = this.line.shift();
    if (first === undefined) return;
    this.hold(first);
    this.listener?.granted('hook', first);
  }

  /** Another worker frees a slot and its own job in line, ahead of this worker's, gets it. */
  releaseToOtherWorker(): void {
    this.freedAt = Date.now();
  }

  async freedAgo(_webhookId: string, withinMs: number): Promise<number | undefined> {
    const ago = this.freedAt === undefined ? Infinity : Date.now() - this.freedAt;
    return ago <= withinMs ? ago : undefined;
  }

  async renew(): Promise<boolean> {
    return true;
  }

  async park(_webhookId: string, holder: string): Promise<void> {
    this.parked.push(holder);
  }

  /** Wakes at least `atLeast` parked jobs (free slots aside), the longest parked first. */
  async sweep(_webhookId: string, atLeast = 0): Promise<string[]> {
    return this.parked.splice(0, atLeast);
  }

  async release(_webhookId: string, holder: string, _outcome: SlotOutcome, _intervalMs: number, next?: string): Promise<ReleaseAnswer> {
    this.releases += 1;
    this.held.delete(holder);
    this.freedAt = Date.now();
    const first = this.grants ? this.line.shift() : undefined;
    if (first !== undefined) {
      this.hold(first);
      return { handed: false, granted: first, wanting: this.line.length };
    }
    if (next === undefined) return { handed: false, wanting: this.line.length };
    this.hold(next);
    return { handed: true, wanting: this.line.length };
  }
}

/** Every WorkerSlots a test made: closed after it, so no job it left in a line asks Redis again once a second for ever (and keeps Jest from exiting). */
const made: WorkerSlots[] = [];

function workerSlots(leases: MemoryLeases, promoted: string[] = [], max = MAX, share = SHARE): WorkerSlots {
  const config = { WEBHOOK_MAX_IN_FLIGHT_PER_WEBHOOK: max, WEBHOOK_MAX_IN_FLIGHT_PER_ORG: share, WEBHOOK_QUICK_RECEIVER_MS: 100, WEBHOOK_STALL_MS: STALL_MS } as WebhooksWorkerConfig;
  const queue = { promote: async (jobId: string) => promoted.push(jobId) > 0 };
  const slots = new WorkerSlots(leases as unknown as InFlightLeases, queue as unknown as DeliveryQueue, config);
  made.push(slots);
  return slots;
}

const isSlot = (answer: SlotAnswer): answer is Extract<SlotAnswer, { slot: unknown }> => 'slot' in answer;

describe('WorkerSlots', () => {
  afterEach(() => {
    for (const slots of made.splice(0)) slots.close();
  });

  it("keeps a slot a success freed, with no job waiting, for the webhook's next jobs here, and gives it back to Redis SPARE_MS later", async () => {
    const leases = new MemoryLeases(true);
    const slots = workerSlots(leases);
    const deliverOne = async (i: number) => {
      const answer = await slots.take('hook', 'org', `job-${i}`, null);
      if (!isSlot(answer)) throw new Error(`job-${i} got no slot`);
      await answer.slot.release('success');
    };
    // The first success goes to Redis: until Redis has heard of one, the breaker's count of timeouts may stand.
    await deliverOne(0);
    expect([leases.acquires, leases.releases]).toEqual([1, 1]);
    // The next one asks Redis and keeps its slot; the two after it take that slot, one at a time, without Redis.
    for (const i of [1, 2, 3]) await deliverOne(i);
    expect([leases.acquires, leases.releases]).toEqual([2, 1]);
    expect([...leases.held]).toEqual(['job-1']);
    // Unused for SPARE_MS, it goes back.
    await eventually(() => expect([leases.releases, leases.held.size]).toEqual([2, 0]), { timeoutMs: SPARE_MS + 1_000 });
    // A failure frees its slot through Redis at once.
    const answer = await slots.take('hook', 'org', 'job-4', null);
    if (!isSlot(answer)) throw new Error('job-4 got no slot');
    await answer.slot.release('other');
    expect([leases.acquires, leases.releases, leases.held.size]).toEqual([3, 3, 0]);
  });

  it("puts a quick webhook's jobs in line when another worker holds every slot, parks the ones over the organization's share once its attempts stall, and starts the others as that worker's releases grant slots", async () => {
    const leases = new MemoryLeases(false);
    const slots = workerSlots(leases);
    await slots.onModuleInit();
    // A burst: all go in line, most of them over the organization's share.
    const started = Date.now();
    const answers = Array.from({ length: 12 }, (_, i) => slots.take('hook', 'org', `job-${i}`, null));
    await eventually(() => expect(leases.line).toHaveLength(12));
    // No attempt of the webhook ends here for WEBHOOK_STALL_MS: the ones over the share leave the line and are parked.
    const parked = await Promise.all(answers.slice(SHARE));
    expect(parked.every((answer) => 'parked' in answer)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(STALL_MS - 50);
    expect(new Set(leases.parked).size).toBe(12 - SHARE);
    await eventually(() => expect([...leases.line].sort()).toEqual(['job-0', 'job-1', 'job-2']));
    const inLine = [...leases.line];
    const answerOf = (holder: string) => answers[Number(holder.slice('job-'.length))];
    // The other worker's releases grant the slots to the jobs in line, the longest in line first.
    for (const holder of inLine.slice(0, 2)) {
      leases.releaseElsewhere('elsewhere');
      expect(isSlot(await answerOf(holder))).toBe(true);
    }
    // Closing, the one still in line leaves it and is parked.
    slots.close();
    expect('parked' in (await answerOf(inLine[2]))).toBe(true);
    expect(leases.line).toEqual([]);
  });

  it("keeps the jobs in line over the organization's share while another worker frees the webhook's slots (to its own jobs in line ahead), and parks them once none is freed for WEBHOOK_STALL_MS", async () => {
    const leases = new MemoryLeases(false);
    const slots = workerSlots(leases);
    await slots.onModuleInit();
    const answers = Array.from({ length: 12 }, (_, i) => slots.take('hook', 'org', `job-${i}`, null));
    await eventually(() => expect(leases.line).toHaveLength(12));
    // The other worker holds every slot and frees one every 200 ms: no attempt ends here, yet the webhook is not stalled.
    const busyUntil = Date.now() + 2 * STALL_MS;
    while (Date.now() < busyUntil) {
      leases.releaseToOtherWorker();
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect([leases.parked, leases.line.length]).toEqual([[], 12]);
    // Its attempts stop ending: the ones over the share leave the line and are parked.
    const stopped = Date.now();
    const parked = await Promise.all(answers.slice(SHARE));
    expect(parked.every((answer) => 'parked' in answer)).toBe(true);
    expect(Date.now() - stopped).toBeGreaterThanOrEqual(STALL_MS - 250);
    slots.close();
    await Promise.all(answers.slice(0, SHARE));
  });

  it('counts the jobs it sends on their way with the ones that come after them, though it forgot the webhook meanwhile', async () => {
    // One slot; the first ask is refused, which puts that job in line and sends the job waiting behind it to ask for itself.
    const leases = new MemoryLeases(true, 1, 1);
    const slots = workerSlots(leases, [], 1);
    // The first two hold the slot until the later job has been told to wait (however slow the machine, it asks while they are in flight).
    let askedLater!: () => void;
    const laterAsked = new Promise<void>((resolve) => (askedLater = resolve));
    const deliver = async (answer: Promise<SlotAnswer>, hold: Promise<void>) => {
      const taken = await answer;
      if (!isSlot(taken)) throw new Error('no slot');
      await Promise.all([hold, new Promise((resolve) => setTimeout(resolve, 2))]);
      await taken.slot.release('success');
    };
    const first = [0, 1].map((i) => deliver(slots.take('hook', 'org', `job-${i}`, null), laterAsked));
    await new Promise((resolve) => setTimeout(resolve, 7));
    let waited = false;
    const onWait = () => {
      waited = true;
      askedLater();
    };
    const later = deliver(slots.take('hook', 'org', 'job-2', null, onWait), Promise.resolve()).finally(askedLater);
    // Every one gets the one slot in turn, granted by the release before it; none is parked.
    await Promise.all([...first, later]);
    expect(waited).toBe(true);
    expect(leases.mostHeld).toBe(1);
    expect(leases.parked).toEqual([]);
    expect([leases.line, [...leases.held]]).toEqual([[], []]);
  });

  it("hands a quick webhook's slots to jobs beyond the organization's share, never more in flight than the share", async () => {
    const leases = new MemoryLeases(true);
    const slots = workerSlots(leases);
    const deliver = async (i: number) => {
      const answer = await slots.take('hook', 'org', `job-${i}`, null);
      if (!isSlot(answer)) return 'parked';
      await new Promise((resolve) => setTimeout(resolve, 2));
      await answer.slot.release('success');
      return 'delivered';
    };
    const outcomes = await Promise.all(Array.from({ length: 10 }, (_, i) => deliver(i)));
    expect(outcomes.filter((outcome) => outcome === 'delivered')).toHaveLength(10);
    expect(leases.mostHeld).toBeLessThanOrEqual(MAX);
    expect(leases.parked).toEqual([]);
  });

  it("parks the jobs beyond the share once the webhook's attempts stop ending, and wakes them when one ends", async () => {
    const leases = new MemoryLeases(true);
    const promoted: string[] = [];
    const slots = workerSlots(leases, promoted);
    // Two attempts take the webhook's slots and hang; a third waits within the share, four more beyond it.
    // The quiet is counted from the webhook's first job here, so the clock starts before it.
    const started = Date.now();
    const first = await Promise.all([0, 1].map((i) => slots.take('hook', 'org', `job-${i}`, null)));
    expect(first.every(isSlot)).toBe(true);
    const later = Array.from({ length: 5 }, (_, i) => slots.take('hook', 'org', `job-${i + 2}`, null));
    const beyond = await Promise.all(later.slice(1));
    expect(beyond.every((answer) => 'parked' in answer)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(STALL_MS - 50);
    expect(leases.parked).toEqual(['job-3', 'job-4', 'job-5', 'job-6']);
    expect(promoted).toEqual([]);
    // The one within the share still waits for a slot an attempt of this worker hands over.
    await new Promise((resolve) => setTimeout(resolve, 150));
    const [hung] = first;
    if (isSlot(hung)) await hung.slot.release('timeout');
    expect(isSlot(await later[0])).toBe(true);
    // An attempt ended: the stall is over, and the jobs it sent away are woken at once, not left behind newer ones.
    await eventually(() => expect(promoted).toEqual(['job-3', 'job-4', 'job-5', 'job-6']));
    slots.close();
  });

  it('passes a slot on to a job waiting here after a success without asking Redis, but not after a timeout', async () => {
    const leases = new MemoryLeases(true, 0, 1);
    const slots = workerSlots(leases, [], 1);
    const taken = async (holder: string) => {
      const answer = await slots.take('hook', 'org', holder, null);
      if (!isSlot(answer)) throw new Error(`${holder} got no slot`);
      return answer.slot;
    };
    const first = await taken('job-0');
    const second = taken('job-1');
    // The first success goes to Redis (it clears the breaker's count of timeouts) and hands the slot over there.
    await first.release('success');
    const third = taken('job-2');
    await (await second).release('success');
    expect(leases.releases).toBe(1);
    const fourth = taken('job-3');
    // A timeout is the breaker's business: Redis hears of it, and it hands the slot over.
    await (await third).release('timeout');
    expect(leases.releases).toBe(2);
    await (await fourth).release('success');
    // Every release named the lease Redis holds: none is left behind.
    expect(leases.held.size).toBe(0);
    expect(leases.mostHeld).toBe(1);
  });

  it('keeps a job Redis refuses in line for an attempt of this worker to end, when another worker holds the rest of the slots', async () => {
    const leases = new MemoryLeases(true);
    leases.held.add('another-worker');
    const slots = workerSlots(leases);
    const first = await slots.take('hook', 'org', 'job-0', null);
    if (!isSlot(first)) throw new Error('job-0 got no slot');
    // This worker holds one of the two slots: the next job asks Redis, is put in line, and stays.
    const second = slots.take('hook', 'org', 'job-1', null);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(leases.parked).toEqual([]);
    expect(leases.line).toEqual(['job-1']);
    await first.slot.release('success');
    const answer = await second;
    expect(isSlot(answer)).toBe(true);
    expect([leases.parked, [...leases.held].sort()]).toEqual([[], ['another-worker', 'job-1']]);
    if (isSlot(answer)) await answer.slot.release('success');
  });

  it("starts a quick webhook's first job though the organization's other quick webhook fills its share with jobs waiting here", async () => {
    // Room in Redis for both webhooks' slots (the memory counts them together).
    const leases = new MemoryLeases(true, 0, 2 * MAX);
    const slots = workerSlots(leases);
    const a = await Promise.all([0, 1].map((i) => slots.take('hook-a', 'org', `a-${i}`, null)));
    // Two in flight, four more of the same webhook waiting: the organization counts six against its share of three.
    const waiting = Array.from({ length: 4 }, (_, i) => slots.take('hook-a', 'org', `a-${i + 2}`, null));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const b = await slots.take('hook-b', 'org', 'b-0', null);
    expect(isSlot(b)).toBe(true);
    expect(leases.parked).toEqual([]);
    for (const answer of [...a, b]) if (isSlot(answer)) await answer.slot.release('success');
    for (const answer of await Promise.all(waiting)) if (isSlot(answer)) await answer.slot.release('success');
  });

  it("starts a quick webhook's job on another of its slots while fewer of the organization's jobs than its share hold one, though jobs waiting here fill the share", async () => {
    const leases = new MemoryLeases(true, 0, 2 * MAX);
    const slots = workerSlots(leases, [], MAX, 4);
    const taken = async (webhookId: string, holder: string) => {
      const answer = await slots.take(webhookId, 'org', holder, null);
      if (!isSlot(answer)) throw new Error(`${holder} got no slot`);
      return answer.slot;
    };
    const flying = [await taken('hook-a', 'a-0'), await taken('hook-b', 'b-0'), await taken('hook-b', 'b-1')];
    // hook-b's slots are taken: two more of its jobs wait here, and the organization counts five against its share of four.
    const waiting = [2, 3].map((i) => slots.take('hook-b', 'org', `b-${i}`, null));
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Three of its jobs hold a slot: hook-a's next job takes its second one at once instead of waiting for a-0 to end.
    const next = await Promise.race([slots.take('hook-a', 'org', 'a-1', null), new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 500))]);
    expect(next !== 'waited' && isSlot(next)).toBe(true);
    expect([...leases.held].sort()).toEqual(['a-0', 'a-1', 'b-0', 'b-1']);
    expect(leases.parked).toEqual([]);
    if (next !== 'waited' && isSlot(next)) await next.slot.release('success');
    for (const slot of flying) await slot.release('success');
    for (const answer of await Promise.all(waiting)) if (isSlot(answer)) await answer.slot.release('success');
  });
});
