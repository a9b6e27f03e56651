import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/config';
import { createLogger } from '@platform/logging';
import { exitGracefully, HealthModule, Readiness, runMain } from '@platform/service';
import { Logger } from 'nestjs-pino';
import { ApiKeyAuthenticator } from './auth/api-key.authenticator';
import { RateLimiter } from './auth/rate-limiter';
import { registerRequestAuth } from './auth/request-auth.hook';
import { GatewayConfig } from './gateway.config';
import { GatewayModule } from './gateway.module';
import { configureFastify, createHttpAdapter } from './http/fastify-server';
import { createOpenApiDocument } from './openapi/openapi-document';
import { serveOpenApi } from './openapi/openapi-routes';

runMain('gateway', async () => {
  const config = loadConfig(GatewayConfig);
  const api = await NestFactory.create<NestFastifyApplication>(GatewayModule.forRoot(config), createHttpAdapter(config), { bufferLogs: true, bodyParser: false });
  api.useLogger(api.get(Logger));
  api.setGlobalPrefix('v1');
  const fastify = api.getHttpAdapter().getInstance();
  configureFastify(fastify);
  registerRequestAuth(fastify, api.get(ApiKeyAuthenticator), api.get(RateLimiter));
  serveOpenApi(api, createOpenApiDocument(api));

  const probes = await NestFactory.create<NestFastifyApplication>(HealthModule.sharing(api.get(Readiness)), new FastifyAdapter(), { bufferLogs: true });
  probes.useLogger(api.get(Logger));
  await probes.listen(config.HEALTH_PORT, '0.0.0.0');
  await api.listen(config.PORT, '0.0.0.0');

  const logger = createLogger('gateway', config.LOG_LEVEL);
  const closeAll = async () => {
    await api.close();
    await probes.close();
  };
  exitGracefully(closeAll, logger, config.SHUTDOWN_TIMEOUT_MS, api.get(Readiness));
  logger.info({ port: config.PORT, healthPort: config.HEALTH_PORT, tls: Boolean(config.TLS_CERT_FILE) }, 'gateway ready');
});
