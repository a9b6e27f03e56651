import type { INestApplication } from '@nestjs/common';
import { OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { FastifyInstance } from 'fastify';
import { CONSOLE_PATH } from '../http/console-static';

/**
 * Public, without an API key: the document, its docs page and the index that points to them describe the
 * API, they are not part of it.
 */
export const OPENAPI_JSON_PATH = '/v1/openapi.json';
export const DOCS_PATH = '/v1/docs';
const INDEX_PATHS = ['/', '/v1', '/v1/'];

export function isPublicDocsPath(url: string): boolean {
  const path = url.split('?')[0];
  return path === OPENAPI_JSON_PATH || INDEX_PATHS.includes(path) || path === DOCS_PATH || path.startsWith(`${DOCS_PATH}/`);
}

/** `GET /` and `GET /v1`: where a newcomer who found the address goes next (the reference, the document and the console). */
export function serveIndex(fastify: FastifyInstance, title: string): void {
  const index = {
    name: title,
    api: '/v1',
    docs: DOCS_PATH,
    openapi: OPENAPI_JSON_PATH,
    console: CONSOLE_PATH,
    authentication: 'Authorization: Bearer <API key> on every /v1 request except this index, docs, openapi and console',
  };
  for (const url of INDEX_PATHS) fastify.get(url, async () => index);
}

/** Serves the document at /v1/openapi.json and a Swagger UI page reading it at /v1/docs. */
export function serveOpenApi(app: INestApplication, document: OpenAPIObject): void {
  SwaggerModule.setup(DOCS_PATH.slice(1), app, document, {
    jsonDocumentUrl: OPENAPI_JSON_PATH.slice(1),
    raw: ['json'],
    customSiteTitle: document.info.title,
  });
}
