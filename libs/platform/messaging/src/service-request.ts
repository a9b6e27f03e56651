import { randomUUID } from 'node:crypto';
import type { Operation, OperationData, OperationInput, ServiceMessage, ServiceRequest, ServiceResult } from '@contracts';
import { JSONCodec, NatsConnection } from 'nats';
import type { ServiceCaller } from './operation-handler';
import { requestPayloads } from './payload-buckets';
import { resultJsonOf } from './reply-packet';

/** The packet of a request on NATS (the shape of Nest's NATS transport, which a Nest client also speaks; replies: replyPacketText). */
export interface RequestPacket {
  pattern: string;
  data: ServiceRequest<object>;
  id: string;
}

const codec = JSONCodec<RequestPacket>();

/**
 * One request to a service's declared operation or message, as a RequestPacket through the
 * connection's shared reply subscription (no fresh inbox per request). A request or reply too large for one
 * NATS message travels as a claim check (LargePayloads). Answers the result as the JSON text the service
 * wrote (resultJsonOf); an error reply becomes its AppError. Transport failures (timeout, no responders) and
 * malformed replies are thrown as they are, for the caller to log and map.
 */
export async function requestServiceJson(nc: NatsConnection, pattern: string, request: ServiceRequest<object>): Promise<string> {
  const payloads = requestPayloads(nc);
  const { data, headers } = await payloads.seal(codec.encode({ pattern, data: request, id: randomUUID() }));
  const message = await nc.request(pattern, data, { timeout: request.timeoutMs, headers });
  return resultJsonOf(Buffer.from(await payloads.open(message)).toString('utf8'), pattern);
}

/** The same request, its result parsed. */
export async function requestService<T = unknown>(nc: NatsConnection, pattern: string, request: ServiceRequest<object>): Promise<ServiceResult<T>> {
  return JSON.parse(await requestServiceJson(nc, pattern, request)) as ServiceResult<T>;
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
