import { randomBytes } from 'node:crypto';
import { connect, NatsConnection, StorageType } from 'nats';
import { CLAIM_CHECK_HEADER, LargePayloads, PayloadBucket, PayloadGoneError } from './large-payloads';

// Runs against the real NATS server (JetStream on), in buckets of its own that it removes afterwards.
const NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

describe('LargePayloads', () => {
  let nc: NatsConnection;
  const buckets: string[] = [];
  const bucket = (readOnce: boolean): PayloadBucket => {
    const name = `large-payloads-spec-${process.pid}-${buckets.length}`;
    buckets.push(name);
    return { name, ttlMs: 60_000, storage: StorageType.Memory, readOnce };
  };

  beforeAll(async () => {
    nc = await connect({ servers: NATS_URL });
  });

  afterAll(async () => {
    const jsm = await nc.jetstreamManager();
    for (const name of buckets) await jsm.streams.delete(`OBJ_${name}`).catch(() => undefined);
    await nc.close();
  });

  it('sends a body that fits one message as it is, with no header and no store', async () => {
    const payloads = new LargePayloads(nc, bucket(true));
    const data = randomBytes(payloads.inlineLimit);
    const sealed = await payloads.seal(data);
    expect(sealed.data).toBe(data);
    expect(sealed.headers).toBeUndefined();
    expect(await payloads.open(sealed)).toBe(data);
  });

  it('carries a body over the server limit through the store, through a real request and reply', async () => {
    const payloads = new LargePayloads(nc, bucket(true));
    const request = randomBytes(3 * 1024 * 1024);
    const reply = randomBytes(2 * 1024 * 1024 + 17);
    const subject = `large-payloads-spec.${process.pid}`;
    const subscription = nc.subscribe(subject, {
      callback: async (_error, message) => {
        const received = await payloads.open(message);
        const answer = await payloads.seal(Buffer.concat([received.subarray(0, 10), reply]));
        message.respond(answer.data, { headers: answer.headers });
      },
    });
    const sealed = await payloads.seal(request);
    expect(sealed.data.length).toBe(0);
    expect(sealed.headers?.get(CLAIM_CHECK_HEADER)).toMatch(/^[0-9a-f-]{36}$/);
    const answer = await nc.request(subject, sealed.data, { headers: sealed.headers, timeout: 10_000 });
    expect(LargePayloads.isClaimCheck(answer)).toBe(true);
    expect(Buffer.from(await payloads.open(answer)).equals(Buffer.concat([request.subarray(0, 10), reply]))).toBe(true);
    subscription.unsubscribe();
  });

  it('reads a read-once body once: a second read finds it gone', async () => {
    const payloads = new LargePayloads(nc, bucket(true));
    const sealed = await payloads.seal(randomBytes(payloads.inlineLimit + 1));
    await payloads.open(sealed);
    // The reader does not wait for the delete; it lands within moments.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await expect(payloads.open(sealed)).rejects.toBeInstanceOf(PayloadGoneError);
  });

  it('keeps an event body for every reader, and a body stored again under the same name replaces it', async () => {
    const payloads = new LargePayloads(nc, bucket(false));
    const first = await payloads.seal(randomBytes(payloads.inlineLimit + 1), undefined, 'event-1');
    const again = randomBytes(payloads.inlineLimit + 100);
    await payloads.seal(again, undefined, 'event-1');
    expect(Buffer.from(await payloads.open(first)).equals(again)).toBe(true);
    expect(Buffer.from(await payloads.open(first)).equals(again)).toBe(true);
  });
});
