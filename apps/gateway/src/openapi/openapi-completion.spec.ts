import type { OpenAPIObject } from '@nestjs/swagger';
import type { ReferenceObject, ResponseObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { BARE_EXTENSION, completeDocument, SCOPE_EXTENSION } from './openapi-completion';

const scanned = (): OpenAPIObject => ({
  openapi: '3.0.0',
  info: { title: 't', version: '1' },
  components: { schemas: { Table: { type: 'object' } } },
  paths: {
    '/v1/tables': {
      get: {
        [SCOPE_EXTENSION]: 'tables:read',
        parameters: [{ name: 'page', in: 'query' }],
        responses: { '200': { description: '', content: { 'application/json': { schema: { $ref: '#/components/schemas/Table' } } } } },
      } as never,
    },
    '/v1/tables/{tableId}': {
      delete: { [SCOPE_EXTENSION]: 'tables:write', responses: { '200': { description: '' } } } as never,
    },
    '/v1/calendar/availability': {
      put: {
        [SCOPE_EXTENSION]: 'calendar:write',
        [BARE_EXTENSION]: true,
        responses: { '200': { description: '', content: { 'application/json': { schema: { type: 'object', required: ['schedules'] } } } } },
      } as never,
    },
    '/v1/health/live': { get: { responses: { '200': { description: '' } } } },
  },
});

/** The JSON schema of one response: a schema of its own, or a reference to a shared one. */
const body = (document: OpenAPIObject, path: string, method: 'get' | 'put' | 'delete', status: string) =>
  (document.paths[path][method]?.responses[status] as ResponseObject).content?.['application/json'].schema as SchemaObject & Partial<ReferenceObject>;

describe('completeDocument', () => {
  it('keeps only routes that require a scope, each with bearer security and its scope named', () => {
    const document = completeDocument(scanned());
    expect(Object.keys(document.paths)).toEqual(['/v1/tables', '/v1/tables/{tableId}', '/v1/calendar/availability']);
    expect(document.components?.securitySchemes?.bearer).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
    expect(document.paths['/v1/tables'].get?.security).toEqual([{ bearer: [] }]);
    expect(document.paths['/v1/tables'].get?.description).toContain('tables:read');
  });

  it('wraps paginated data in the envelope with pagination, and deletions as a message', () => {
    const document = completeDocument(scanned());
    expect(body(document, '/v1/tables', 'get', '200')).toEqual(
      expect.objectContaining({
        required: ['success', 'data', 'pagination'],
        properties: expect.objectContaining({ data: { type: 'array', items: { $ref: '#/components/schemas/Table' } } }),
      }),
    );
    expect(body(document, '/v1/tables/{tableId}', 'delete', '200').required).toEqual(['success', 'message']);
  });

  it('leaves bare answers unwrapped and gives every route the error body for each listed status', () => {
    const document = completeDocument(scanned());
    expect(body(document, '/v1/calendar/availability', 'put', '200')).toEqual({ type: 'object', required: ['schedules'] });
    expect(document.paths['/v1/calendar/availability'].put).not.toHaveProperty(BARE_EXTENSION);
    for (const status of ['400', '401', '403', '404', '429', '500']) {
      expect(body(document, '/v1/tables', 'get', status)).toEqual({ $ref: '#/components/schemas/ErrorResponse' });
    }
  });
});
