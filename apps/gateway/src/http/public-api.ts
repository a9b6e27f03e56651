import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ServiceBus } from '../bus/service-bus';
import { ApiKeyAuthenticator } from '../auth/api-key.authenticator';
import { RateLimiter } from '../auth/rate-limiter';
import { registerRequestAuth } from '../auth/request-auth.hook';
import { GatewayConfig } from '../gateway.config';
import { idempotencyLeaseMs, registerIdempotency } from '../idempotency/idempotency-key.hook';
import { IdempotencyRepository } from '../idempotency/idempotency.repository';
import { createOpenApiDocument } from '../openapi/openapi-document';
import { serveIndex, serveOpenApi } from '../openapi/openapi-routes';
import { serveConsole } from './console-static';
import { registerOperationRoutes } from '../routes/operation-routes';
import { configureFastify } from './fastify-server';
import { API_OPERATIONS } from '@contracts';

/**
 * The `/v1` API on the gateway's application: Fastify's parsing, then authentication, rate limit and
 * Idempotency-Key before routing; the declared operations' routes; the OpenAPI document; the web
 * console's static files.
 */
export async function configurePublicApi(api: NestFastifyApplication): Promise<void> {
  const fastify = api.getHttpAdapter().getInstance();
  configureFastify(fastify, api.get(GatewayConfig).REQUEST_BODY_TIMEOUT_MS);
  registerRequestAuth(fastify, api.get(ApiKeyAuthenticator), api.get(RateLimiter));
  registerIdempotency(fastify, api.get(IdempotencyRepository), idempotencyLeaseMs(api.get(GatewayConfig)));
  registerOperationRoutes(fastify, api.get(ServiceBus), API_OPERATIONS);
  const document = await createOpenApiDocument();
  serveOpenApi(api, document);
  serveIndex(fastify, document.info.title);
  await serveConsole(fastify);
}
