import { Writable } from 'node:stream';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import pino from 'pino';
import { ServiceLogger } from './service-logger';

describe('ServiceLogger', () => {
  it("writes Nest's start-up messages at debug and everything else at its own level", async () => {
    const lines: Array<{ level: number; msg: string; context?: string }> = [];
    const sink = new Writable({ write: (chunk, _encoding, done) => (lines.push(JSON.parse(String(chunk))), done()) });
    @Module({ imports: [LoggerModule.forRoot({ forRoutes: [], pinoHttp: { logger: pino({ level: 'debug' }, sink) } })], providers: [ServiceLogger] })
    class LoggingOnly {}
    const context = await NestFactory.createApplicationContext(LoggingOnly, { logger: false });
    const logger = context.get(ServiceLogger);
    logger.log('Mapped {/v1/tables, GET} route', 'RouterExplorer');
    logger.log('TablesModule dependencies initialized', 'InstanceLoader');
    logger.log('event fan-out consuming', 'EventFanOut');
    logger.warn('slow', 'EventFanOut');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map(({ level, msg }) => [level, msg])).toEqual([
      [20, 'Mapped {/v1/tables, GET} route'],
      [20, 'TablesModule dependencies initialized'],
      [30, 'event fan-out consuming'],
      [40, 'slow'],
    ]);
    await context.close();
  });
});
