import { DELIVERIES_PER_JOB, DELIVERIES_PER_JOB_AT_LEAST } from '../delivery/delivery-job';
import type { FanOutSeries, StoredEvent } from '../event-store/event-store.repository';
import { fanOutJobs } from './fan-out-jobs';

const ORG = 'org';

function batch(count: number, webhooks: string[]): { series: FanOutSeries[]; events: Map<string, StoredEvent> } {
  const events = new Map<string, StoredEvent>();
  const series: FanOutSeries[] = [];
  for (let i = 0; i < count; i += 1) {
    const id = `event-${i}`;
    events.set(id, { id, organizationId: ORG, eventType: 'row.created', tableId: 'table', body: `{"n":${i}}` });
    for (const webhookId of webhooks) series.push({ id: `${webhookId}-${i}`, event_id: id, webhook_id: webhookId, finished: false, created: true, attempts: 0 });
  }
  return { series, events };
}

const SLOTS = 4;

/** Each job's series: its own, then the ones it carries. */
const carried = (jobs: ReturnType<typeof fanOutJobs>['jobs']) => jobs.map((job) => [job.data.seriesId, ...(job.data.more ?? []).map((d) => d.seriesId)]);

describe('fanOutJobs', () => {
  it("gives a few events' series of a webhook one job, each webhook its own", () => {
    const { series, events } = batch(DELIVERIES_PER_JOB_AT_LEAST - 1, ['a', 'b']);
    const { jobs, again } = fanOutJobs(series, events, SLOTS);
    expect(again).toEqual([]);
    expect(carried(jobs)).toEqual([
      ['a-0', 'a-1', 'a-2'],
      ['b-0', 'b-1', 'b-2'],
    ]);
    expect(jobs.map((job) => job.opts.jobId)).toEqual(['a-0', 'b-0']);
    expect(jobs[0].data.more?.[0]).toEqual({ seriesId: 'a-1', eventId: 'event-1', eventType: 'row.created', tableId: 'table', body: '{"n":1}' });
    expect(jobs[0].data.body).toBe('{"n":0}');
  });

  it('deals a burst over the slots in turn and in order, DELIVERIES_PER_JOB_AT_LEAST a job, each job named after its first', () => {
    const { series, events } = batch(DELIVERIES_PER_JOB_AT_LEAST + 1, ['a']);
    expect(carried(fanOutJobs(series, events, SLOTS).jobs)).toEqual([
      ['a-0', 'a-2', 'a-4'],
      ['a-1', 'a-3'],
    ]);
    const burst = batch(SLOTS * DELIVERIES_PER_JOB_AT_LEAST - 2, ['a']);
    const { jobs } = fanOutJobs(burst.series, burst.events, SLOTS);
    expect(carried(jobs)).toEqual([
      ['a-0', 'a-4', 'a-8', 'a-12'],
      ['a-1', 'a-5', 'a-9', 'a-13'],
      ['a-2', 'a-6', 'a-10'],
      ['a-3', 'a-7', 'a-11'],
    ]);
    expect(jobs.map((job) => job.opts.jobId)).toEqual(['a-0', 'a-1', 'a-2', 'a-3']);
  });

  it('takes more jobs than slots where each would carry over DELIVERIES_PER_JOB', () => {
    const count = SLOTS * DELIVERIES_PER_JOB + 1;
    const { series, events } = batch(count, ['a']);
    const lines = carried(fanOutJobs(series, events, SLOTS).jobs);
    expect(lines).toHaveLength(SLOTS + 1);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(DELIVERIES_PER_JOB);
    expect(new Set(lines.flat()).size).toBe(count);
  });

  it('follows the order of the events in the batch, whatever the order the series came back in', () => {
    const { series, events } = batch(SLOTS * 2, ['a']);
    const { jobs } = fanOutJobs([...series].reverse(), events, SLOTS);
    expect(carried(jobs)).toEqual([
      ['a-0', 'a-2', 'a-4', 'a-6'],
      ['a-1', 'a-3', 'a-5', 'a-7'],
    ]);
  });

  it('gives a series opened before its own job, counting its attempts, sending only if still owed, and names it; finished series get none', () => {
    const { series, events } = batch(3, ['a']);
    series[0] = { ...series[0], created: false, attempts: 2 };
    series[1] = { ...series[1], finished: true };
    const { jobs, again } = fanOutJobs(series, events, SLOTS);
    expect(again).toEqual(['a-0']);
    expect(jobs.map((job) => [job.opts.jobId, job.data.attemptsBefore, job.data.more, job.data.recheck])).toEqual([
      ['a-0', 2, undefined, true],
      ['a-2', undefined, undefined, undefined],
    ]);
  });
});
