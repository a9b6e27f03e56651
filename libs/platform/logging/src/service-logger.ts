import { Injectable } from '@nestjs/common';
import { Logger } from 'nestjs-pino';

/**
 * Nest's own start-up messages: one line per module, per controller and per route (about 200 in the
 * gateway). They say nothing an operator acts on, and at `info` they buried the lines that matter
 * (ready, the development key) in `npm start`'s output; they stay readable at `debug`.
 */
const START_UP_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication', 'NestMicroservice']);

/** Nest's logger over our JSON logger, with Nest's start-up chatter at `debug`. */
@Injectable()
export class ServiceLogger extends Logger {
  override log(message: unknown, ...optionalParams: unknown[]): void {
    const context = optionalParams[optionalParams.length - 1];
    if (typeof context === 'string' && START_UP_CONTEXTS.has(context)) return super.debug(message, ...optionalParams);
    return super.log(message, ...optionalParams);
  }
}
