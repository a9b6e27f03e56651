import { NestApplicationOptions, Type } from '@nestjs/common';
import { DiscoveryService, NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { ServiceConfig } from '@platform/config';
import { createLogger, ServiceLogger } from '@platform/logging';
import { boundHandlers, connectNats, OperationServer } from '@platform/messaging';
import { HealthChecks } from './health/health-checks';
import { ProbesModule } from './health/health.module';
import { exitGracefully } from './shutdown';

/** A process that serves an HTTP API of its own (the gateway). */
export interface PublicHttp {
  port: number;
  adapter: FastifyAdapter;
  options?: NestApplicationOptions;
  /** Routes, hooks and documents on the application before it listens. */
  configure(app: NestFastifyApplication): void | Promise<void>;
}

export interface ServiceBootstrap {
  /** The app's name in logs and in its NATS connection. */
  name: string;
  module: Type<unknown> | ReturnType<typeof Object>;
  config: ServiceConfig;
  /** NATS queue group of its declared operations' handlers; omit for a process that only works in the background. */
  queue?: string;
  http?: PublicHttp;
}

/**
 * Starts a process of the system: its application (the handlers its providers bind with `@Handles`,
 * answering on NATS in the queue group so replicas share the load; an HTTP API when it has one), and
 * beside it the health port's server for probes and metrics. SIGTERM turns the process not-ready, then
 * closes both.
 */
export async function bootstrapService(options: ServiceBootstrap): Promise<void> {
  const { name, config, http } = options;
  const app = await NestFactory.create<NestFastifyApplication>(options.module as Type<unknown>, http?.adapter ?? new FastifyAdapter(), {
    bufferLogs: true,
    ...http?.options,
  });
  const logger = app.get(ServiceLogger);
  app.useLogger(logger);
  let operations: OperationServer | undefined;
  if (options.queue) {
    const instances = [...app.get(DiscoveryService).getProviders(), ...app.get(DiscoveryService).getControllers()]
      .map((wrapper) => wrapper.instance as object | undefined)
      .filter((instance): instance is object => typeof instance === 'object' && instance !== null);
    const handlers = instances.flatMap(boundHandlers);
    if (handlers.length === 0) throw new Error(`${name} joins the queue group ${options.queue} but binds no handler with @Handles`);
    const connect = () => connectNats(config.NATS_URL, `${name}-rpc`);
    operations = new OperationServer({ connect, queue: options.queue, handlers, shutdownGraceMs: config.RPC_SHUTDOWN_GRACE_MS });
    app.connectMicroservice({ strategy: operations });
    await app.init();
    await app.startAllMicroservices();
  }
  const health = app.get(HealthChecks);
  const probes = await NestFactory.create<NestFastifyApplication>(ProbesModule.serving(health), new FastifyAdapter(), { bufferLogs: true });
  probes.useLogger(logger);
  await probes.listen(config.HEALTH_PORT, '0.0.0.0');
  if (http) {
    await http.configure(app);
    await app.listen(http.port, '0.0.0.0');
  } else {
    await app.init();
  }
  health.markServing();
  const log = createLogger(name, config.LOG_LEVEL);
  const close = async () => {
    // The operations first, while their database is still open: leave the queue group, answer what is held.
    // Nest's own close of the application closes them too, after its destroy hooks: by then a no-op.
    await operations?.close();
    await app.close();
    await probes.close();
  };
  exitGracefully(close, log, config.SHUTDOWN_TIMEOUT_MS, health);
  log.info({ healthPort: config.HEALTH_PORT, queue: options.queue, port: http?.port }, 'service started');
}
