import type { NatsConnection } from 'nats';

/** The core NATS subject on which writers announce that entries of a context's outbox committed. */
export function outboxWakeSubject(schema: string): string {
  return `outbox.${schema}.committed`;
}

/**
 * The writer's side of the wake: a function to call after every commit that wrote outbox entries. It
 * publishes at once when nothing was announced in the last `gapMs`, else once at the end of that gap, so
 * a burst of commits costs a few messages and every commit is followed by one (a relay woken before a
 * commit was visible is woken again after it). Nothing here waits for the relay or fails the commit.
 */
export function outboxAnnouncer(nc: NatsConnection, schema: string, gapMs = 2): () => void {
  const subject = outboxWakeSubject(schema);
  let timer: NodeJS.Timeout | undefined;
  let again = false;
  const publish = () => {
    try {
      if (!nc.isClosed()) nc.publish(subject);
    } catch {
      // A hint: the relay's poll finds what a lost wake would have announced.
    }
    timer = setTimeout(() => {
      timer = undefined;
      if (again) {
        again = false;
        publish();
      }
    }, gapMs);
    timer.unref();
  };
  return () => {
    if (timer) again = true;
    else publish();
  };
}
