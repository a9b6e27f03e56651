import { DynamicModule, RequestMethod } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { createLogger } from './logger';

/** nestjs-pino wired to our JSON logger; probes and metrics scrapes are not logged. */
export function loggingModule(app: string, level: string, options: { logRequests?: boolean } = {}): DynamicModule {
  return LoggerModule.forRoot({
    // Nest 11's wildcard syntax (the default '*' draws a deprecation warning at every start).
    forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
    pinoHttp: {
      logger: createLogger(app, level),
      autoLogging: options.logRequests
        ? { ignore: (req) => /^\/(health|metrics)/.test(req.url ?? '') }
        : false,
      quietReqLogger: true,
      serializers: {
        req: (req) => ({ id: req.id, method: req.method, url: req.url }),
        res: (res) => ({ statusCode: res.statusCode }),
      },
    },
  });
}
