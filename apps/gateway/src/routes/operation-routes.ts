import { Logger } from '@nestjs/common';
import { ContractClass, grants, isResendable, isUuid, Operation, pathParamKey, pathParamNames, ServiceResult } from '@contracts';
import { AppError, ErrorCode, validateInput } from '@platform/errors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceBus } from '../bus/service-bus';
import { replyWithFailure } from '../http/all-exceptions.filter';

const logger = new Logger('Gateway');

/** The status of a success the operation does not declare: 201 for a POST, 200 otherwise. */
export function successStatus({ status, method }: Pick<Operation, 'status' | 'method'>): number {
  return status ?? (method === 'POST' ? 201 : 200);
}

/** The route's URL for Fastify: `tables/:table_id/rows` below `/v1`. */
export function routeUrl(path: string): string {
  return `/v1/${path.replace(/^\/+/, '')}`.replace(/\/$/, '');
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** The success envelope around a service's result, from the result's JSON text as the service wrote it: `{"success":true,"data":...}`. */
export function successBody(resultJson: string): string {
  return resultJson === '{}' ? '{"success":true}' : `{"success":true,${resultJson.slice(1)}`;
}

/**
 * What one declared operation takes from a request, in the order a client learns of its mistakes: the
 * key's scope (403), the plan (PLAN_REQUIRED), each path id (a 404 for one that is not a UUID), then the
 * query and the body against their contract classes (VALIDATION_ERROR). Answers the service's input: the
 * ids camel-cased, then the query's and the body's properties.
 */
function checkedInput(operation: Operation, ids: readonly string[], request: FastifyRequest): Record<string, unknown> {
  const { scope, gate, query, body, optionalBody } = operation;
  const auth = request.auth;
  if (!auth) throw new AppError(ErrorCode.Unauthorized, 'Missing API key');
  if (!grants(auth.scopes, scope)) throw new AppError(ErrorCode.Forbidden, `This API key lacks the ${scope} scope`);
  if (gate && !gate.allows(auth.org)) throw new AppError(ErrorCode.PlanRequired, gate.message);
  const input: Record<string, unknown> = {};
  const params = request.params as Record<string, string>;
  for (const name of ids) {
    const value = params[name];
    if (!isUuid(value)) throw AppError.notFound();
    input[pathParamKey(name)] = value.toLowerCase();
  }
  if (query) Object.assign(input, validateInput(query as ContractClass, request.query));
  if (body) {
    const sent = request.body;
    // A body the operation may go without reads as `{}` when absent, and is checked like any other when present.
    const missing = sent === undefined || sent === null || sent === '';
    Object.assign(input, optionalBody && missing ? new (body as ContractClass)() : validateInput(body as ContractClass, sent));
  }
  return input;
}

/**
 * One declared operation as a Fastify route: its input checked once, here at the edge, then sent to the
 * subject of the service that owns it; the answer in the success envelope (or bare, where declared), around
 * the result's JSON as the service wrote it.
 * Authentication, the rate limit and Idempotency-Key ran before, as hooks of every request.
 */
function operationRoute(bus: ServiceBus, operation: Operation) {
  const ids = pathParamNames(operation.path);
  const { subject, timeoutMs, inputStatus, bare } = operation;
  const status = successStatus(operation);
  const options = { resendable: isResendable(operation), ...(timeoutMs === undefined ? {} : { timeoutMs }) };
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    try {
      const input = checkedInput(operation, ids, request);
      const caller = { org: request.auth!.org, requestId: String(request.id) };
      const result = await bus.send(subject, caller, input, options);
      reply.code(inputStatus?.when(input as never) ? inputStatus.status : status);
      reply.type(JSON_TYPE);
      return reply.send(bare ? JSON.stringify((JSON.parse(result) as ServiceResult).data) : successBody(result));
    } catch (error) {
      return replyWithFailure(request, reply, error, logger);
    }
  };
}

/**
 * The routes of every declared operation, registered on Fastify directly: no route is written by hand.
 * A failure before the handler (the body's parsing, its size, its time) leaves in the same error body.
 */
export function registerOperationRoutes(fastify: FastifyInstance, bus: ServiceBus, operations: readonly Operation[]): void {
  fastify.setErrorHandler((error, request, reply) => replyWithFailure(request, reply, error, logger));
  for (const operation of operations) {
    fastify.route({ method: operation.method, url: routeUrl(operation.path), handler: operationRoute(bus, operation) });
  }
}
