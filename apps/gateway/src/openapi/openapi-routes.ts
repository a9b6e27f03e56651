import type { INestApplication } from '@nestjs/common';
import { OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

/** Public, without an API key: the document and its docs page describe the API, they are not part of it. */
export const OPENAPI_JSON_PATH = '/v1/openapi.json';
export const DOCS_PATH = '/v1/docs';

export function isPublicDocsPath(url: string): boolean {
  const path = url.split('?')[0];
  return path === OPENAPI_JSON_PATH || path === DOCS_PATH || path.startsWith(`${DOCS_PATH}/`);
}

/** Serves the document at /v1/openapi.json and a Swagger UI page reading it at /v1/docs. */
export function serveOpenApi(app: INestApplication, document: OpenAPIObject): void {
  SwaggerModule.setup(DOCS_PATH.slice(1), app, document, {
    jsonDocumentUrl: OPENAPI_JSON_PATH.slice(1),
    raw: ['json'],
    customSiteTitle: document.info.title,
  });
}
