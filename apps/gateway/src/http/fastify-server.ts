import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Duplex } from 'node:stream';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { AppError } from '@platform/errors';
import { counter, histogram } from '@platform/service';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
import { GatewayConfig } from '../gateway.config';
import { errorPayload, sendError, toAppError } from './error-reply';

export const BODY_LIMIT_BYTES = 1024 * 1024;
/** No request of the interface nests anywhere near this deep; deeper input is refused before it is parsed. */
export const MAX_JSON_DEPTH = 32;
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

const requests = counter('http_requests_total', 'HTTP requests answered', ['method', 'route', 'status']);
const latency = histogram('http_request_duration_seconds', 'HTTP request latency', ['method', 'route', 'status']);

/**
 * A request Node's HTTP parser refuses (headers or URL over its 16 KiB, a broken request line) never
 * reaches Fastify; it still gets a 400 in the documented error body before the connection closes.
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable) return void socket.destroy();
  const message = error.code === 'HPE_HEADER_OVERFLOW' ? 'Request headers or URL are too large' : 'Malformed HTTP request';
  const body = JSON.stringify(errorPayload(AppError.badRequest(message)));
  socket.end(
    `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export function createHttpAdapter(config: GatewayConfig): FastifyAdapter {
  const https =
    config.TLS_CERT_FILE && config.TLS_KEY_FILE
      ? { cert: readFileSync(config.TLS_CERT_FILE), key: readFileSync(config.TLS_KEY_FILE) }
      : undefined;
  return new FastifyAdapter({
    ...(https ? { https } : {}),
    bodyLimit: BODY_LIMIT_BYTES,
    // Longer than any id; a longer path segment names nothing, which the routes answer with 404.
    routerOptions: { maxParamLength: 1_000 },
    // Failures before routing (a malformed URL) get the same error body as everything else.
    frameworkErrors: (error: Error, _request: FastifyRequest, reply: FastifyReply) => sendError(reply, toAppError(error).appError),
    clientErrorHandler: answerClientError,
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

/**
 * JSON bodies (an empty one counts as none), the request id header and metrics. Fastify's own failures
 * (parsing, body size) reach Nest's exception layer and leave through AllExceptionsFilter.
 */
export function configureFastify(app: FastifyInstance): void {
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
}
