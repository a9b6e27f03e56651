import type { OpenAPIObject, OperationObject, ParameterObject, ResponseObject } from '@nestjs/swagger';
import { ENVELOPE_COMPONENTS, envelopeOf, ERROR_RESPONSE, ref } from './openapi-schemas';

/** Set by @RequireScope on every API route; routes without it (the probes) are not part of the API. */
export const SCOPE_EXTENSION = 'x-required-scope';
/** Set by @BareData: the route answers its data without the envelope. */
export const BARE_EXTENSION = 'x-bare-response';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const ERROR_STATUSES: Record<string, string> = {
  '400': 'VALIDATION_ERROR (details name the field), BAD_REQUEST, CONFLICT, DOMAIN_NOT_VERIFIED or LIMIT_EXCEEDED',
  '401': 'UNAUTHORIZED: missing or invalid API key',
  '403': 'FORBIDDEN (the key lacks the scope) or PLAN_REQUIRED',
  '404': 'NOT_FOUND: unknown route or id, or a resource of another organization',
  '429': 'RATE_LIMITED: see Retry-After',
  '500': 'INTERNAL_ERROR',
};
const RATE_LIMIT_HEADERS: Record<string, string> = {
  'X-RateLimit-Limit': 'Requests allowed per minute for this key',
  'X-RateLimit-Remaining': 'Requests left in the current window',
  'X-RateLimit-Reset': 'When the window resets',
  'X-Request-Id': 'The request id (the client may send its own)',
};

/** Every POST may carry one (the gateway's idempotency hook answers a repeat from what it stored). */
const IDEMPOTENCY_KEY: ParameterObject = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes the POST safe to retry: for 24 hours, the same key with the same request answers the stored status and ' +
    'body with `Idempotent-Replayed: true`; with a different request, or while the first is in flight, 400 CONFLICT.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};
const REPLAYED_HEADER = {
  description: '`true` when this answer is the stored answer to an earlier request with the same Idempotency-Key',
  schema: { type: 'string', enum: ['true'] },
};

type Operation = OperationObject & { [SCOPE_EXTENSION]?: string; [BARE_EXTENSION]?: boolean };

const isPaginated = (operation: Operation) =>
  (operation.parameters ?? []).some((parameter) => (parameter as ParameterObject).in === 'query' && (parameter as ParameterObject).name === 'page');

function headerRefs(): ResponseObject['headers'] {
  return Object.fromEntries(Object.keys(RATE_LIMIT_HEADERS).map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}

/** The success answer: what the controller declared, inside the envelope unless the route is bare. */
function completeSuccess(method: string, operation: Operation, response: ResponseObject): void {
  const declared = response.content?.['application/json']?.schema;
  if (operation[BARE_EXTENSION]) {
    if (declared) response.content = { 'application/json': { schema: declared } };
    return;
  }
  if (declared && 'properties' in declared && declared.properties?.success) return;
  const paginated = isPaginated(operation);
  // A paginated route may declare its item or the array of items; `data` is the array either way.
  const item = paginated && declared && 'items' in declared && declared.items ? declared.items : declared;
  const schema =
    method === 'delete' && !declared
      ? envelopeOf({ message: true })
      : envelopeOf({ data: item, paginated });
  response.content = { 'application/json': { schema } };
}

/**
 * Turns the document @nestjs/swagger scans from the controllers into the API's: only the scoped routes,
 * bearer security on each, the envelope around every success answer, and the error body for every
 * status the interface lists.
 */
export function completeDocument(document: OpenAPIObject): OpenAPIObject {
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, ...ENVELOPE_COMPONENTS },
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', description: 'An API key: `Authorization: Bearer <API key>`' },
    },
    headers: Object.fromEntries(
      Object.entries(RATE_LIMIT_HEADERS).map(([name, description]) => [name, { description, schema: { type: name === 'X-Request-Id' ? 'string' : 'integer' } }]),
    ),
  };
  document.security = [{ bearer: [] }];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method] as Operation | undefined;
      if (!operation) continue;
      const scope = operation[SCOPE_EXTENSION];
      if (!scope) {
        delete item[method];
        continue;
      }
      operation.security = [{ bearer: [] }];
      if (method === 'post') operation.parameters = [...(operation.parameters ?? []), IDEMPOTENCY_KEY];
      operation.description = [`Requires the \`${scope}\` scope (or \`*\`).`, operation.description].filter(Boolean).join(' ');
      for (const [status, response] of Object.entries(operation.responses)) {
        if (/^2\d\d$/.test(status)) {
          completeSuccess(method, operation, response as ResponseObject);
          (response as ResponseObject).description ||= operation.summary ?? 'Success';
        }
        const headers = { ...(response as ResponseObject).headers, ...headerRefs() };
        if (method === 'post' && /^2\d\d$/.test(status)) headers['Idempotent-Replayed'] = REPLAYED_HEADER;
        (response as ResponseObject).headers = headers;
      }
      for (const [status, description] of Object.entries(ERROR_STATUSES)) {
        operation.responses[status] ??= { description, headers: headerRefs(), content: { 'application/json': { schema: ref(ERROR_RESPONSE) } } };
      }
      delete operation[BARE_EXTENSION];
    }
    if (!METHODS.some((method) => item[method])) delete document.paths[path];
  }
  return document;
}
