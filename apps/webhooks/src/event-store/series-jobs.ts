import { deliveryJob } from '../delivery/delivery-job';
import type { OwedSeries } from './event-store.repository';

/**
 * The job that carries a series on: explicit for a redelivery or recovery, counting the attempts it already
 * made; `recheck` for a series that may have had a job until a moment ago (see DeliveryJob.recheck).
 */
export function jobOfSeries(series: OwedSeries, { recheck = false }: { recheck?: boolean } = {}): ReturnType<typeof deliveryJob> {
  return deliveryJob(
    {
      seriesId: series.id,
      eventId: series.event_id,
      eventType: series.event_type,
      tableId: series.table_id,
      organizationId: series.organization_id,
      webhookId: series.webhook_id,
      body: series.body,
      ...(series.trigger === 'event' ? {} : { explicit: true }),
      ...(series.attempts > 0 ? { attemptsBefore: series.attempts } : {}),
      ...(recheck ? { recheck } : {}),
    },
  );
}
