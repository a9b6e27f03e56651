import { DELIVERIES_PER_JOB } from '../delivery/delivery-job';
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

describe('fanOutJobs', () => {
  it("puts a batch's new series of one webhook together, in order, at most DELIVERIES_PER_JOB to a job named after its first", () => {
    const { series, events } = batch(DELIVERIES_PER_JOB + 3, ['a', 'b']);
    const { jobs, again } = fanOutJobs(series, events);
    expect(again).toEqual([]);
    const carried = jobs.map((job) => [job.opts.jobId, job.data.webhookId, [job.data.seriesId, ...(job.data.more ?? []).map((d) => d.seriesId)].length]);
    expect(carried).toEqual([
      ['a-0', 'a', DELIVERIES_PER_JOB],
      [`a-${DELIVERIES_PER_JOB}`, 'a', 3],
      ['b-0', 'b', DELIVERIES_PER_JOB],
      [`b-${DELIVERIES_PER_JOB}`, 'b', 3],
    ]);
    const first = jobs[0].data;
    expect(first.more?.[0]).toEqual({ seriesId: 'a-1', eventId: 'event-1', eventType: 'row.created', tableId: 'table', body: '{"n":1}' });
    expect(first.body).toBe('{"n":0}');
  });

  it('follows the order of the events in the batch, whatever the order the series came back in', () => {
    const { series, events } = batch(3, ['a']);
    const { jobs } = fanOutJobs([...series].reverse(), events);
    expect([jobs[0].data.seriesId, ...(jobs[0].data.more ?? []).map((d) => d.seriesId)]).toEqual(['a-0', 'a-1', 'a-2']);
  });

  it('gives a series opened before its own job, counting its attempts, and names it; finished series get none', () => {
    const { series, events } = batch(3, ['a']);
    series[0] = { ...series[0], created: false, attempts: 2 };
    series[1] = { ...series[1], finished: true };
    const { jobs, again } = fanOutJobs(series, events);
    expect(again).toEqual(['a-0']);
    expect(jobs.map((job) => [job.opts.jobId, job.data.attemptsBefore, job.data.more])).toEqual([
      ['a-0', 2, undefined],
      ['a-2', undefined, undefined],
    ]);
  });
});
