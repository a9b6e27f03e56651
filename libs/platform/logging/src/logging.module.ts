import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { createLogger } from './logger';
import { ServiceLogger } from './service-logger';

/**
 * nestjs-pino wired to our JSON logger, as Nest's logger only. No request is logged on success, so no
 * per-request middleware runs: pino-http's child logger for every request and the AsyncLocalStorage
 * context around it (which turns on promise hooks for every promise of the process) cost more than the
 * request id they would add; error logs name the request id themselves.
 */
export function loggingModule(app: string, level: string): DynamicModule {
  const pino = LoggerModule.forRoot({ forRoutes: [], pinoHttp: { logger: createLogger(app, level) } });
  return { module: ServiceLoggingModule, imports: [pino], providers: [ServiceLogger], exports: [pino, ServiceLogger], global: true };
}

@Module({})
class ServiceLoggingModule {}
