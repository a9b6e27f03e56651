import { INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MicroserviceOptions, Transport } from '@nestjs/microservices';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { ServiceConfig } from '@platform/config';
import { createLogger } from '@platform/logging';
import { natsClientOptions, ServiceReplyInterceptor } from '@platform/messaging';
import { Logger } from 'nestjs-pino';
import { Readiness } from './readiness';
import { exitGracefully } from './shutdown';

export interface ServiceBootstrap {
  /** The app's name in logs and in its NATS connection. */
  name: string;
  module: Type<unknown> | ReturnType<typeof Object>;
  config: ServiceConfig;
  /** NATS queue group for request-reply handlers; omit for a process that only works in the background. */
  queue?: string;
}

/**
 * Starts a service process: an HTTP server on HEALTH_PORT for probes and metrics, and, when a queue is
 * given, request-reply handlers on NATS in that queue group so replicas share the load.
 */
export async function bootstrapService(options: ServiceBootstrap): Promise<INestApplication> {
  const { name, config } = options;
  const app = await NestFactory.create<NestFastifyApplication>(options.module as Type<unknown>, new FastifyAdapter(), {
    bufferLogs: true,
  });
  app.useLogger(app.get(Logger));
  if (options.queue) {
    // Registered before the transport is connected: handlers bound afterwards would not see it.
    app.useGlobalInterceptors(new ServiceReplyInterceptor());
    app.connectMicroservice<MicroserviceOptions>(
      {
        transport: Transport.NATS,
        options: { ...natsClientOptions(config.NATS_URL, `${name}-rpc`), queue: options.queue },
      },
      { inheritAppConfig: true },
    );
    await app.startAllMicroservices();
  }
  await app.listen(config.HEALTH_PORT, '0.0.0.0');
  const logger = createLogger(name, config.LOG_LEVEL);
  exitGracefully(() => app.close(), logger, config.SHUTDOWN_TIMEOUT_MS, app.get(Readiness));
  logger.info({ healthPort: config.HEALTH_PORT, queue: options.queue }, 'service started');
  return app;
}
