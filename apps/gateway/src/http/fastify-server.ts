import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { createLogger } from '@platform/logging';
import { counter, histogram } from '@platform/service';
import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { GatewayConfig } from '../gateway.config';
import { sendError, toAppError } from './error-reply';

export const BODY_LIMIT_BYTES = 1024 * 1024;
/** No request of the interface nests anywhere near this deep; deeper input is refused before it is parsed. */
export const MAX_JSON_DEPTH = 32;
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

const requests = counter('http_requests_total', 'HTTP requests answered', ['method', 'route', 'status']);
const latency = histogram('http_request_duration_seconds', 'HTTP request latency', ['method', 'route', 'status']);

export function createHttpAdapter(config: GatewayConfig): FastifyAdapter {
  const https =
    config.TLS_CERT_FILE && config.TLS_KEY_FILE
      ? { cert: readFileSync(config.TLS_CERT_FILE), key: readFileSync(config.TLS_KEY_FILE) }
      : undefined;
  return new FastifyAdapter({
    ...(https ? { https } : {}),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: true,
    requestIdHeader: false,
    genReqId: (request: { headers: Record<string, string | string[] | undefined> }) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
    },
  });
}

/** The deepest nesting of objects and arrays in JSON text, found in one pass without recursion. */
export function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 92 /* \\ */) i += 1;
      else if (char === 34 /* " */) inString = false;
    } else if (char === 34) inString = true;
    else if (char === 123 || char === 91 /* { [ */) deepest = Math.max(deepest, ++depth);
    else if (char === 125 || char === 93 /* } ] */) depth -= 1;
  }
  return deepest;
}

/** JSON bodies (an empty one counts as none), the request id header, metrics and the error body for Fastify's own failures. */
export function configureFastify(app: FastifyInstance, config: GatewayConfig): void {
  const logger = createLogger('gateway', config.LOG_LEVEL);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    if (nestingDepth(text) > MAX_JSON_DEPTH) {
      return done(Object.assign(new Error(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`), { code: 'INVALID_JSON', statusCode: 400 }), undefined);
    }
    try {
      done(null, secureJson.parse(text));
    } catch {
      done(Object.assign(new Error('Request body is not valid JSON'), { code: 'INVALID_JSON', statusCode: 400 }), undefined);
    }
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    const labels = { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
  });
  app.setErrorHandler((error, request, reply) => {
    const { appError, unexpected } = toAppError(error);
    if (unexpected) logger.error({ err: error, requestId: request.id }, 'unhandled error');
    return sendError(reply, appError);
  });
}
