import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { ApiResponse } from './api-response';
import { REPO_ROOT } from './stack-state';

interface OpenApiOperation {
  responses: Record<string, { content?: Record<string, { schema?: object }> }>;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  /** What receivers get, by event kind (OpenAPI 3.1). */
  webhooks?: Record<string, { post?: { requestBody?: { content?: Record<string, { schema?: object }> } } }>;
  components?: object;
}

let document: OpenApiDocument | undefined;
const validators = new Map<string, ValidateFunction>();
const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));

/** The committed openapi.json (which the gateway also serves at /v1/openapi.json). */
export function openApiDocument(): OpenApiDocument {
  document ??= JSON.parse(readFileSync(resolve(REPO_ROOT, 'openapi.json'), 'utf8')) as OpenApiDocument;
  return document;
}

/** The documented path template a concrete path (relative to /v1, as the document's paths are; query allowed) falls under. */
export function openApiPathOf(path: string): string | undefined {
  const segments = path.split('?')[0].split('/');
  const isParameter = (part: string) => /^\{.+\}$/.test(part);
  const matches = Object.keys(openApiDocument().paths).filter((template) => {
    const parts = template.split('/');
    return parts.length === segments.length && parts.every((part, i) => (isParameter(part) ? segments[i] !== '' : part === segments[i]));
  });
  // A literal segment wins over a parameter: `/rows/batch` is not the row whose id is "batch".
  const parameters = (template: string) => template.split('/').filter(isParameter).length;
  return matches.sort((a, b) => parameters(a) - parameters(b))[0];
}

function validatorFor(template: string, method: string, status: number): ValidateFunction | string {
  const key = `${method} ${template} ${status}`;
  const cached = validators.get(key);
  if (cached) return cached;
  const operation = openApiDocument().paths[template]?.[method];
  if (!operation) return `${method.toUpperCase()} ${template} is not in openapi.json`;
  const response = operation.responses[String(status)] ?? operation.responses.default;
  if (!response) return `${method.toUpperCase()} ${template} documents no ${status} response`;
  const schema = response.content?.['application/json']?.schema;
  if (!schema) return `${method.toUpperCase()} ${template} ${status} documents no JSON body`;
  // The response schema refers into #/components; compiling it beside them resolves those references.
  const validate = ajv.compile({ allOf: [schema], components: openApiDocument().components });
  validators.set(key, validate);
  return validate;
}

/** Whether openapi.json documents this method on this path (relative to /v1). */
export function isDocumentedOperation(method: string, path: string): boolean {
  const template = openApiPathOf(path);
  return template !== undefined && openApiDocument().paths[template]?.[method.toLowerCase()] !== undefined;
}

/**
 * What is wrong with a response against the OpenAPI document, for its method, path (relative to /v1)
 * and status; empty when it matches.
 */
export function openApiViolations(method: string, path: string, response: Pick<ApiResponse, 'status' | 'body'>): string[] {
  const template = openApiPathOf(path);
  if (!template) return [`${path} matches no path of openapi.json`];
  const validate = validatorFor(template, method.toLowerCase(), response.status);
  if (typeof validate === 'string') return [validate];
  if (validate(response.body)) return [];
  return (validate.errors ?? []).map((error) => `${method.toUpperCase()} ${template} ${response.status}: body${error.instancePath} ${error.message}`);
}

/** Fails the test when a response does not match what openapi.json documents for it. */
export function expectMatchesOpenApi(method: string, path: string, response: Pick<ApiResponse, 'status' | 'body'>): void {
  const violations = openApiViolations(method, path, response);
  if (violations.length > 0) throw new Error(`Response does not match openapi.json:\n  ${violations.join('\n  ')}\nbody: ${JSON.stringify(response.body)}`);
}

/** What is wrong with a webhook payload against the document's `webhooks` entry of its kind; empty when it matches. */
export function webhookPayloadViolations(kind: string, payload: unknown): string[] {
  const key = `webhook ${kind}`;
  let validate = validators.get(key);
  if (!validate) {
    const schema = openApiDocument().webhooks?.[kind]?.post?.requestBody?.content?.['application/json']?.schema;
    if (!schema) return [`openapi.json has no webhooks entry for ${kind}`];
    validate = ajv.compile({ allOf: [schema], components: openApiDocument().components });
    validators.set(key, validate);
  }
  if (validate(payload)) return [];
  return (validate.errors ?? []).map((error) => `webhook ${kind}: payload${error.instancePath} ${error.message}`);
}
