import { firstValueFrom, of, Subject, throwError } from 'rxjs';
import { InFlightRequests } from './in-flight-requests';

describe('InFlightRequests', () => {
  it('counts a handler until it has answered, and settles once none is left', async () => {
    const inFlight = new InFlightRequests();
    const answer = new Subject<string>();
    const reply = firstValueFrom(inFlight.track(answer));
    expect(inFlight.size).toBe(1);
    const settled = inFlight.settled(5_000);
    answer.next('done');
    answer.complete();
    await expect(reply).resolves.toBe('done');
    await expect(settled).resolves.toBe(true);
    expect(inFlight.size).toBe(0);
  });

  it('stops counting a failed handler, and settles at once when idle', async () => {
    const inFlight = new InFlightRequests();
    await expect(firstValueFrom(inFlight.track(throwError(() => new Error('boom'))))).rejects.toThrow('boom');
    await expect(firstValueFrom(inFlight.track(of(1)))).resolves.toBe(1);
    expect(inFlight.size).toBe(0);
    await expect(inFlight.settled(0)).resolves.toBe(true);
  });

  it('gives up waiting after the time allowed', async () => {
    const inFlight = new InFlightRequests();
    const stuck = inFlight.track(new Subject<never>()).subscribe();
    await expect(inFlight.settled(20)).resolves.toBe(false);
    stuck.unsubscribe();
    expect(inFlight.size).toBe(0);
  });
});
