import { CarriedDelivery, DELIVERIES_PER_JOB, DELIVERIES_PER_JOB_AT_LEAST, deliveryJob } from '../delivery/delivery-job';
import type { FanOutSeries, StoredEvent } from '../event-store/event-store.repository';

export interface FanOutJobs {
  jobs: Array<ReturnType<typeof deliveryJob>>;
  /** Series opened before this batch (their event was handed over again): their jobs are added only if no job carries them yet. */
  again: string[];
}

/**
 * The jobs for the series a fan-out batch left open. The series it opened for a webhook are dealt in turn,
 * in the order of the batch, over jobs that each carry DELIVERIES_PER_JOB_AT_LEAST of them (the last one
 * fewer), as many as the webhook has slots (`slots`, its attempts in flight at once), more where each would
 * carry over DELIVERIES_PER_JOB; each job is identified by its first series. So a few events cost one job's
 * moves in the queue, a burst goes out side by side on the webhook's slots, and a backlog costs a job per
 * several deliveries. A series opened
 * before (its event was handed over again) gets a job of its own, whose id is its series, so the job it
 * already has, if any, makes this one a no-op, and which sends only if the series is still owed (a job that had
 * it may have finished it meanwhile); it is named in `again`, for the one that carries it.
 */
export function fanOutJobs(series: readonly FanOutSeries[], events: ReadonlyMap<string, StoredEvent>, slots: number): FanOutJobs {
  const jobs: Array<ReturnType<typeof deliveryJob>> = [];
  const again: string[] = [];
  const opened = new Map<string, CarriedDelivery[]>();
  // In the order of the batch's events: the statement that stored the series answers them in an order of its own.
  const position = new Map([...events.keys()].map((id, i) => [id, i]));
  const inOrder = [...series].sort((a, b) => (position.get(a.event_id) ?? 0) - (position.get(b.event_id) ?? 0));
  for (const open of inOrder) {
    if (open.finished) continue;
    const event = events.get(open.event_id) as StoredEvent;
    const delivery: CarriedDelivery = { seriesId: open.id, eventId: event.id, eventType: event.eventType, tableId: event.tableId, body: event.body };
    if (!open.created) {
      again.push(open.id);
      jobs.push(deliveryJob({ ...delivery, organizationId: event.organizationId, webhookId: open.webhook_id, recheck: true, ...(open.attempts > 0 ? { attemptsBefore: open.attempts } : {}) }));
      continue;
    }
    const line = opened.get(open.webhook_id) ?? [];
    line.push(delivery);
    opened.set(open.webhook_id, line);
  }
  for (const [webhookId, line] of opened) {
    const organizationId = (events.get(line[0].eventId) as StoredEvent).organizationId;
    for (const [own, ...more] of dealt(line, slots)) {
      jobs.push(deliveryJob({ ...own, organizationId, webhookId, ...(more.length > 0 ? { more } : {}) }));
    }
  }
  return { jobs, again };
}

/** One webhook's new deliveries dealt over its jobs in turn: the batch's first ones start first, each job keeps their order. */
function dealt(line: readonly CarriedDelivery[], slots: number): CarriedDelivery[][] {
  const count = Math.max(Math.min(slots, Math.ceil(line.length / DELIVERIES_PER_JOB_AT_LEAST)), Math.ceil(line.length / DELIVERIES_PER_JOB));
  const parts: CarriedDelivery[][] = Array.from({ length: count }, () => []);
  line.forEach((delivery, i) => parts[i % count].push(delivery));
  return parts;
}
