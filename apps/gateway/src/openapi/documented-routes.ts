import { applyDecorators, Body, Controller, Delete, Get, HttpCode, Module, Param, Patch, Post, Put, Query, Type } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiExtension, ApiOperation, ApiParam, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { API_OPERATIONS, HttpMethod, Operation, pathParamNames } from '@contracts';
import { successStatus } from '../routes/operation-routes';
import { ApiData, ApiDataList } from './api-data.decorator';
import { BARE_EXTENSION, SCOPE_EXTENSION } from './openapi-completion';
import { envelopeOf } from './openapi-schemas';

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
  const { method, path, scope, operationId, summary, description, tag, bare, body, optionalBody } = operation;
  return applyDecorators(
    ROUTE[method](path),
    HttpCode(successStatus(operation)),
    ...(bare ? [ApiExtension(BARE_EXTENSION, true)] : []),
    ApiExtension(SCOPE_EXTENSION, scope),
    ApiTags(tag),
    ApiBearerAuth(),
    ApiOperation({ operationId, summary, ...(description ? { description } : {}) }),
    ...answerDoc(operation),
    ...ids.map((name) => ApiParam({ name, format: 'uuid' })),
    ...(body && optionalBody ? [ApiBody({ type: body, required: false })] : []),
  );
}

/**
 * One operation as @nestjs/swagger reads a route: its parameters are each path id, the query and the
 * body, typed with their contract classes. The method is never called: the gateway serves the
 * operation through its Fastify route (routes/operation-routes.ts).
 */
function documentRoute(routes: Type<unknown>, operation: Operation): void {
  const key = operation.operationId;
  const ids = pathParamNames(operation.path);
  const { query, body, optionalBody } = operation;
  const prototype = routes.prototype as object;
  // @nestjs/swagger finds a route's parameters by the name of its function.
  const handler = () => undefined;
  Object.defineProperty(handler, 'name', { value: key });
  Object.defineProperty(prototype, key, { value: handler, writable: true, configurable: true });
  const params: ParameterDecorator[] = ids.map((name) => Param(name));
  const paramTypes: unknown[] = ids.map(() => String);
  if (query) {
    params.push(Query());
    paramTypes.push(query);
  }
  if (body) {
    // An optional body is stated by its ApiBody, which says that it may be left out.
    params.push(Body());
    paramTypes.push(optionalBody ? Object : body);
  }
  // Last first, as TypeScript applies parameter decorators: the document lists parameters in that order.
  for (let i = params.length - 1; i >= 0; i -= 1) params[i](prototype, key, i);
  Reflect.defineMetadata('design:paramtypes', paramTypes, prototype, key);
  routeDecorators(operation, ids)(prototype, key, Object.getOwnPropertyDescriptor(prototype, key)!);
}

/** A controller that states every declared operation for the OpenAPI document, and serves nothing. */
export function documentedRoutes(name: string, operations: readonly Operation[]): Type<unknown> {
  class DocumentedRoutes {}
  Object.defineProperty(DocumentedRoutes, 'name', { value: name });
  Controller()(DocumentedRoutes);
  for (const operation of operations) documentRoute(DocumentedRoutes, operation);
  return DocumentedRoutes;
}

/** What the OpenAPI document is read from: the declared operations, in an application that is only scanned. */
@Module({ controllers: [documentedRoutes('DeclaredRoutes', API_OPERATIONS)] })
export class DocumentedRoutesModule {}
