import { AppError } from '@platform/errors';

/** A call is sent at most this often: the first send and two more, each after the resend delay unanswered. */
const MAX_SENDS = 3;

/**
 * Sends, and sends again every `resendAfterMs` while no send has answered (up to MAX_SENDS, none that
 * would start past the deadline). The first answer wins, a service's error included. A send fails on the
 * way only at its deadline or when NATS is away, so the call fails when a failure leaves no send in flight.
 */
export function firstAnswer<T>(send: () => Promise<T>, resendAfterMs: number, deadline: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let sends = 0;
    let pending = 0;
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (settle: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      settle();
    };
    const sendNext = () => {
      sends += 1;
      pending += 1;
      send().then(
        (answer) => finish(() => resolve(answer)),
        (error: unknown) => {
          pending -= 1;
          if (error instanceof AppError || pending === 0) finish(() => reject(error));
        },
      );
      if (sends < MAX_SENDS && Date.now() + resendAfterMs < deadline) timer = setTimeout(sendNext, resendAfterMs);
    };
    sendNext();
  });
}
