import { randomUUID } from 'node:crypto';
import { headers as natsHeaders, MsgHdrs, nanos, NatsConnection, ObjectStore, StorageType } from 'nats';

/**
 * The header of a message whose body was too large for one NATS message: it names the object holding
 * the body, and the message itself is empty (a claim check).
 */
export const CLAIM_CHECK_HEADER = 'Claim-Check';

/** Room left in a message for its headers and the protocol line around it. */
const HEADROOM_BYTES = 16 * 1024;
/** What a server that has not told its limit yet is assumed to take (NATS's default). */
const DEFAULT_MAX_PAYLOAD = 1024 * 1024;
/** How long each chunk's store may take: a large body on a busy server needs more than JetStream's 5 s default. */
const CHUNK_TIMEOUT_MS = 30_000;

export interface PayloadBucket {
  name: string;
  /** How long a stored body stays readable. */
  ttlMs: number;
  storage: StorageType;
  replicas?: number;
  /** The reader deletes the object once it has it (a body read exactly once, such as a request's). */
  readOnce: boolean;
}

/**
 * Bodies of requests and replies between the gateway and the services: read once, within their deadline,
 * so memory is enough (a NATS restart fails the requests in flight anyway) and spares the disk.
 */
export function requestPayloadBucket(): PayloadBucket {
  return { name: 'request-payloads', ttlMs: 10 * 60_000, storage: StorageType.Memory, readOnce: true };
}

/** Bodies of events in the EVENTS stream: kept as long as the stream keeps the event. */
export function eventPayloadBucket(retentionMs: number, replicas: number): PayloadBucket {
  return { name: 'event-payloads', ttlMs: retentionMs, storage: StorageType.File, replicas, readOnce: false };
}

/** A message's body and headers as they go on the wire. */
export interface SealedPayload {
  data: Uint8Array;
  headers?: MsgHdrs;
}

/** What a received message offers: its body and headers. */
export interface ReceivedPayload {
  data: Uint8Array;
  headers?: MsgHdrs;
}

/**
 * Carries bodies of any size across NATS, whose messages stop at the server's `max_payload` (1 MiB by
 * default, and not ours to raise): a body that fits goes as it is, untouched and at no cost; a larger one
 * is put in a JetStream object store bucket (chunked there under the limit) and the message carries only
 * its name in the Claim-Check header. The reader opens the message and gets the same bytes either way.
 */
export class LargePayloads {
  private store?: Promise<ObjectStore>;

  constructor(
    private readonly nc: NatsConnection,
    private readonly bucket: PayloadBucket,
  ) {}

  /** The largest body that goes inline. */
  get inlineLimit(): number {
    return (this.nc.info?.max_payload ?? DEFAULT_MAX_PAYLOAD) - HEADROOM_BYTES;
  }

  /**
   * The message to send for `data`; `headers` are kept (and added to when the body goes to the store).
   * `name` names the stored body (an event's id, so a publish retried replaces it instead of adding one).
   */
  async seal(data: Uint8Array, headers?: MsgHdrs, name: string = randomUUID()): Promise<SealedPayload> {
    if (data.length <= this.inlineLimit) return { data, headers };
    const store = await this.objects();
    await store.putBlob({ name, options: { max_chunk_size: this.inlineLimit } }, data, { timeout: CHUNK_TIMEOUT_MS });
    const sealed = headers ?? natsHeaders();
    sealed.set(CLAIM_CHECK_HEADER, name);
    return { data: new Uint8Array(0), headers: sealed };
  }

  /** True when the message's body waits in the store (open() then costs a round trip or more). */
  static isClaimCheck(message: ReceivedPayload): boolean {
    return Boolean(message.headers?.has(CLAIM_CHECK_HEADER));
  }

  /** The body a message carries, fetched from the store when it holds a claim check. */
  async open(message: ReceivedPayload): Promise<Uint8Array> {
    const name = message.headers?.get(CLAIM_CHECK_HEADER);
    if (!name) return message.data;
    const store = await this.objects();
    const data = await store.getBlob(name);
    if (data === null) throw new PayloadGoneError(this.bucket.name, name);
    if (this.bucket.readOnce) void store.delete(name).catch(() => undefined);
    return data;
  }

  /** Creates the bucket when it is missing; safe from every process at start-up. */
  async ensureBucket(): Promise<void> {
    await this.objects();
  }

  private objects(): Promise<ObjectStore> {
    this.store ??= this.nc
      .jetstream()
      .views.os(this.bucket.name, { ttl: nanos(this.bucket.ttlMs), storage: this.bucket.storage, replicas: this.bucket.replicas ?? 1 })
      .catch((error: unknown) => {
        this.store = undefined;
        throw error;
      });
    return this.store;
  }
}

/** A claim check whose object is no longer in the store (expired, or already read once). */
export class PayloadGoneError extends Error {
  constructor(bucket: string, name: string) {
    super(`payload ${name} is no longer in ${bucket}`);
    this.name = 'PayloadGoneError';
  }
}
