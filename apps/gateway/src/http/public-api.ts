import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiKeyAuthenticator } from '../auth/api-key.authenticator';
import { RateLimiter } from '../auth/rate-limiter';
import { registerRequestAuth } from '../auth/request-auth.hook';
import { GatewayConfig } from '../gateway.config';
import { idempotencyLeaseMs, registerIdempotency } from '../idempotency/idempotency-key.hook';
import { IdempotencyRepository } from '../idempotency/idempotency.repository';
import { createOpenApiDocument } from '../openapi/openapi-document';
import { serveIndex, serveOpenApi } from '../openapi/openapi-routes';
import { serveConsole } from './console-static';
import { configureFastify } from './fastify-server';

/**
 * The `/v1` API on the gateway's application: Fastify's parsing, then authentication, rate limit and
 * Idempotency-Key before routing; the OpenAPI document; the web console's static files.
 */
export async function configurePublicApi(api: NestFastifyApplication): Promise<void> {
  api.setGlobalPrefix('v1');
  const fastify = api.getHttpAdapter().getInstance();
  configureFastify(fastify, api.get(GatewayConfig).REQUEST_BODY_TIMEOUT_MS);
  registerRequestAuth(fastify, api.get(ApiKeyAuthenticator), api.get(RateLimiter));
  registerIdempotency(fastify, api.get(IdempotencyRepository), idempotencyLeaseMs(api.get(GatewayConfig)));
  const document = createOpenApiDocument(api);
  serveOpenApi(api, document);
  serveIndex(fastify, document.info.title);
  await serveConsole(fastify);
}
