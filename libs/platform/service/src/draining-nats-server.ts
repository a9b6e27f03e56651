import { NatsOptions } from '@nestjs/microservices';
import { InFlightRequests, ServiceTransport } from '@platform/messaging';
import type { NatsConnection, Subscription } from 'nats';

/**
 * The services' NATS transport (ServiceTransport) with a shutdown that loses no request: it leaves the queue group by draining its
 * subscriptions (requests NATS already routed here are still taken; new ones go to the other replicas),
 * waits until the requests in flight have answered (at most `graceMs`: their deadline ends them anyway),
 * flushes the answers, and only then closes. Nest's own close dropped the answers of requests in flight.
 */
export class DrainingNatsServer extends ServiceTransport {
  private readonly queueSubscriptions: Subscription[] = [];

  constructor(
    options: Required<NatsOptions>['options'],
    private readonly inFlight: InFlightRequests,
    private readonly graceMs: number,
  ) {
    super(options);
  }

  override bindEvents(client: NatsConnection): void {
    const recording = Object.create(client) as NatsConnection;
    recording.subscribe = (subject, options) => {
      const subscription = client.subscribe(subject, options);
      this.queueSubscriptions.push(subscription);
      return subscription;
    };
    super.bindEvents(recording);
  }

  override async close(): Promise<void> {
    await Promise.all(this.queueSubscriptions.map((subscription) => subscription.drain().catch(() => undefined)));
    // A message the drain handed over reaches the reply interceptor (where it is counted) a few promise
    // steps later; let those run first.
    await new Promise((resolve) => setImmediate(resolve));
    await this.inFlight.settled(this.graceMs);
    const connection = this.unwrap<NatsConnection | null>();
    if (connection && !connection.isClosed()) await connection.flush().catch(() => undefined);
    await super.close();
  }
}
