import { randomUUID } from 'node:crypto';
import type { Operation, OperationData, OperationInput, ServiceMessage, ServiceReply, ServiceRequest, ServiceResult } from '@contracts';
import { AppError, isErrorBody } from '@platform/errors';
import { JSONCodec, NatsConnection } from 'nats';
import type { ServiceCaller } from './operation-handler';
import { requestPayloads } from './payload-buckets';

/** The packets of a request and its reply on NATS (the shape of Nest's NATS transport, which a Nest client also speaks). */
export interface RequestPacket {
  pattern: string;
  data: ServiceRequest<object>;
  id: string;
}
export interface ReplyPacket {
  id?: string;
  response?: ServiceReply;
  err?: unknown;
  isDisposed?: boolean;
}

const codec = JSONCodec<RequestPacket | ReplyPacket>();

/**
 * One request to a service's declared operation or message, as a RequestPacket through the
 * connection's shared reply subscription (no fresh inbox per request). A request or reply too large for one
 * NATS message travels as a claim check (LargePayloads). Answers the result; an error reply becomes its
 * AppError. Transport failures (timeout, no responders) and malformed replies are thrown as they are, for
 * the caller to log and map.
 */
export async function requestService<T = unknown>(nc: NatsConnection, pattern: string, request: ServiceRequest<object>): Promise<ServiceResult<T>> {
  const payloads = requestPayloads(nc);
  const { data, headers } = await payloads.seal(codec.encode({ pattern, data: request, id: randomUUID() }));
  const message = await nc.request(pattern, data, { timeout: request.timeoutMs, headers });
  const reply = (codec.decode(await payloads.open(message)) as ReplyPacket).response;
  if (reply?.ok === true) {
    const { ok: _ok, ...result } = reply;
    return result as ServiceResult<T>;
  }
  if (reply?.ok === false && isErrorBody(reply.error)) throw AppError.fromBody(reply.error);
  throw new Error(`malformed reply to ${pattern}`);
}

/**
 * Asks the service that owns a declaration, from inside the system (a service asking another), for the
 * caller it acts on behalf of, as a call of its own: the input and the answer are typed by the declaration.
 */
export function askService<D extends Operation | ServiceMessage>(
  nc: NatsConnection,
  declaration: D,
  caller: ServiceCaller,
  input: OperationInput<D>,
  timeoutMs: number,
): Promise<ServiceResult<OperationData<D>>> {
  return requestService<OperationData<D>>(nc, declaration.subject, { org: caller.org, requestId: caller.requestId, callId: randomUUID(), timeoutMs, params: input as object });
}
