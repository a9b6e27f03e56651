import { AppError } from '@platform/errors';
import { firstAnswer } from './first-answer';

const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));
const failAfter = (ms: number, error: unknown) => new Promise<never>((_, reject) => setTimeout(() => reject(error), ms));

describe('firstAnswer', () => {
  it('sends once when the first send answers in time', async () => {
    let sends = 0;
    const answer = await firstAnswer(() => ((sends += 1), after(20, 'first')), 100, Date.now() + 1_000);
    expect(answer).toBe('first');
    await after(150, null);
    expect(sends).toBe(1);
  });

  it('sends again after the delay when the first send is lost, and takes the answer of the second', async () => {
    const started = Date.now();
    const sends: number[] = [];
    const answer = await firstAnswer(
      () => {
        sends.push(Date.now() - started);
        return sends.length === 1 ? failAfter(1_000, new Error('TIMEOUT')) : after(10, `send ${sends.length}`);
      },
      100,
      started + 1_000,
    );
    expect(answer).toBe('send 2');
    expect(sends).toHaveLength(2);
    expect(sends[1]).toBeGreaterThanOrEqual(95);
  });

  it('sends at most three times and never past the deadline', async () => {
    let sends = 0;
    const error = new Error('TIMEOUT');
    await expect(firstAnswer(() => ((sends += 1), failAfter(250, error)), 50, Date.now() + 250)).rejects.toBe(error);
    expect(sends).toBe(3);
    sends = 0;
    await expect(firstAnswer(() => ((sends += 1), failAfter(120, error)), 100, Date.now() + 120)).rejects.toBe(error);
    expect(sends).toBe(2);
  });

  it("takes a service's error as the answer, and fails when a failure leaves nothing in flight", async () => {
    const refused = AppError.notFound('Row');
    await expect(firstAnswer(() => failAfter(10, refused), 100, Date.now() + 1_000)).rejects.toBe(refused);
    const away = new Error('NATS is disconnected');
    let sends = 0;
    await expect(firstAnswer(() => ((sends += 1), failAfter(10, away)), 100, Date.now() + 1_000)).rejects.toBe(away);
    expect(sends).toBe(1);
  });
});
