import type { OpenAPIObject } from '@nestjs/swagger';
import { toJsonSchema } from '@contracts';

/**
 * @nestjs/swagger writes its schemas the OpenAPI 3.0 way whatever the document's version: every schema of
 * the document (components, parameters, bodies, answers, headers) is rewritten as OpenAPI 3.1 says it.
 */
export function asOpenApi31(document: OpenAPIObject): OpenAPIObject {
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'schema' && typeof value === 'object' && value !== null) (node as Record<string, unknown>)[key] = toJsonSchema(value);
      else visit(value);
    }
  };
  const schemas = document.components?.schemas ?? {};
  for (const [name, schema] of Object.entries(schemas)) schemas[name] = toJsonSchema(schema) as never;
  visit(document.paths);
  visit(document.components?.headers);
  return document;
}
