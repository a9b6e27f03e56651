import { applyDecorators, Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Put, Query, Res, Type, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiParam, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ContractClass, HttpMethod, isResendable, Operation, pathParamKey, pathParamNames } from '@contracts';
import { CallerOf, RequireScope } from '../auth/require-scope';
import { Caller, ServiceBus } from '../bus/service-bus';
import { BareData } from '../http/envelope.interceptor';
import { OptionalBodyPipe } from '../http/optional-body.pipe';
import { ResourceIdPipe } from '../http/resource-id.pipe';
import { ApiData, ApiDataList } from '../openapi/api-data.decorator';
import { envelopeOf } from '../openapi/openapi-schemas';
import { GatedBy, PlanGateGuard } from './plan-gate.guard';

const ROUTE: Record<HttpMethod, (path: string) => MethodDecorator> = { GET: Get, POST: Post, PUT: Put, PATCH: Patch, DELETE: Delete };

/** How the OpenAPI document states the answer; the envelope around it is added by openapi-completion. */
function answerDoc({ answers, status = 200, inputStatus }: Operation): MethodDecorator[] {
  if (answers === undefined) return [];
  if (answers === 'message') return [ApiResponse({ status, schema: envelopeOf({ message: true }) })];
  const docs = [Array.isArray(answers) ? ApiDataList(answers[0], status) : ApiData(answers as Type<unknown>, status)];
  if (inputStatus) {
    // This answer carries more than `data`, so it is stated with its whole envelope.
    const item = { $ref: getSchemaPath(Array.isArray(answers) ? answers[0] : (answers as Type<unknown>)) };
    const envelope = envelopeOf({ data: Array.isArray(answers) ? { type: 'array', items: item } : item });
    const alongside = inputStatus.alongside ?? {};
    const schema = { ...envelope, required: [...(envelope.required ?? []), ...Object.keys(alongside)], properties: { ...envelope.properties, ...alongside } };
    docs.push(ApiResponse({ status: inputStatus.status, description: inputStatus.description, schema }));
  }
  return docs;
}

function routeDecorators(operation: Operation, ids: string[]): MethodDecorator {
  const { method, path, status, scope, operationId, summary, description, tag, bare, gate, body, optionalBody } = operation;
  return applyDecorators(
    ROUTE[method](path),
    ...(status === undefined ? [] : [HttpCode(status)]),
    ...(bare ? [BareData()] : []),
    RequireScope(scope),
    ...(gate ? [GatedBy(gate), UseGuards(PlanGateGuard)] : []),
    ApiTags(tag),
    ApiBearerAuth(),
    ApiOperation({ operationId, summary, ...(description ? { description } : {}) }),
    ...answerDoc(operation),
    ...ids.map((name) => ApiParam({ name, format: 'uuid' })),
    ...(body && optionalBody ? [ApiBody({ type: body, required: false })] : []),
  );
}

/**
 * One route: its arguments are the caller, each path id, the query and the body, in that order (a bad id
 * is a 404 before the query or the body is read), and the reply when the input decides the status. The
 * global validation pipe checks the query and the body against their classes once, here at the edge; the
 * service receives them, with the ids, as one object.
 */
function defineRoute(routes: Type<{ bus: ServiceBus }>, operation: Operation): void {
  const key = operation.operationId;
  const ids = pathParamNames(operation.path);
  const inputKeys = ids.map(pathParamKey);
  const { subject, timeoutMs, query, body, optionalBody, inputStatus } = operation;
  const inputCount = inputKeys.length + (query ? 1 : 0) + (body ? 1 : 0);
  const options = { resendable: isResendable(operation), ...(timeoutMs === undefined ? {} : { timeoutMs }) };
  const inputOf = (values: unknown[]) => {
    const input: Record<string, unknown> = {};
    for (let i = 0; i < inputKeys.length; i += 1) input[inputKeys[i]] = values[i];
    for (let i = inputKeys.length; i < inputCount; i += 1) Object.assign(input, values[i]);
    return input;
  };
  const handler = inputStatus
    ? async function (this: { bus: ServiceBus }, caller: Caller, ...values: unknown[]) {
        const input = inputOf(values);
        const result = await this.bus.send(subject, caller, input, options);
        if (inputStatus.when(input)) (values[inputCount] as FastifyReply).status(inputStatus.status);
        return result;
      }
    : function (this: { bus: ServiceBus }, caller: Caller, ...values: unknown[]) {
        return this.bus.send(subject, caller, inputOf(values), options);
      };
  // @nestjs/swagger finds a route's parameters by the name of its function.
  Object.defineProperty(handler, 'name', { value: key });
  Object.defineProperty(routes.prototype, key, { value: handler, writable: true, configurable: true });
  const prototype = routes.prototype as object;
  const params: ParameterDecorator[] = [CallerOf(), ...ids.map((name) => Param(name, ResourceIdPipe))];
  const paramTypes: unknown[] = [Object, ...ids.map(() => String)];
  if (query) {
    params.push(Query());
    paramTypes.push(query);
  }
  if (body) {
    // An optional body is left alone by the global pipe (its declared type is Object) and checked by its own.
    params.push(optionalBody ? Body(new OptionalBodyPipe(body as ContractClass)) : Body());
    paramTypes.push(optionalBody ? Object : body);
  }
  if (inputStatus) {
    params.push(Res({ passthrough: true }));
    paramTypes.push(Object);
  }
  // Last first, as TypeScript applies parameter decorators: the document lists parameters in that order.
  for (let i = params.length - 1; i >= 0; i -= 1) params[i](prototype, key, i);
  Reflect.defineMetadata('design:paramtypes', paramTypes, prototype, key);
  routeDecorators(operation, ids)(prototype, key, Object.getOwnPropertyDescriptor(prototype, key)!);
}

/**
 * The gateway's routes, built from the declared operations: each forwards its checked input to the
 * subject of the service that owns it. No route is written by hand.
 */
export function declaredRoutes(name: string, operations: readonly Operation[]): Type<unknown> {
  class DeclaredRoutes {
    constructor(@Inject(ServiceBus) readonly bus: ServiceBus) {}
  }
  Object.defineProperty(DeclaredRoutes, 'name', { value: name });
  Controller()(DeclaredRoutes);
  for (const operation of operations) defineRoute(DeclaredRoutes, operation);
  return DeclaredRoutes;
}
