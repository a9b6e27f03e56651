import { isUtf8 } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type Duplex, PassThrough, type Readable } from 'node:stream';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { AppError, assertStorableJson, joinPath } from '@platform/errors';
import { counter, histogram } from '@platform/service';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
import { GatewayConfig } from '../gateway.config';
import { closingQuote, QUOTE } from './json-text';
import { errorPayload, sendError, toAppError } from './error-reply';
import { inexactNumber, pathOfNumber } from './exact-numbers';

export const BODY_LIMIT_BYTES = 1024 * 1024;
/**
 * A body over the limit is refused before it is read, and Fastify closes the connection: a client still
 * sending gets a broken pipe instead of the answer. Up to this size the rest is read and dropped instead
 * (Node does that on a connection kept alive; AllExceptionsFilter keeps it), so the client reads its 400.
 */
export const DRAINED_BODY_BYTES = 8 * BODY_LIMIT_BYTES;
/** No request of the interface nests anywhere near this deep; deeper input is refused before it is parsed. */
export const MAX_JSON_DEPTH = 32;
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;
/** Bodies are JSON in UTF-8: `application/json`, with at most a `charset=utf-8` parameter (any case). */
const JSON_CONTENT_TYPE = /^application\/json\s*(?:;\s*charset\s*=\s*(?:utf-8|"utf-8")\s*)?$/i;

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
    // Only these peers' X-Forwarded-For names the client; from anyone else it is ignored.
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
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
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charCodeAt(i);
    if (char === QUOTE) i = closingQuote(text, i);
    else if (char === 123 || char === 91 /* { [ */) deepest = Math.max(deepest, ++depth);
    else if (char === 125 || char === 93 /* } ] */) depth -= 1;
  }
  return deepest;
}

/** Whether a Content-Type header declares the one body format the API takes. */
export function isJsonContentType(header: string | undefined): boolean {
  return header !== undefined && JSON_CONTENT_TYPE.test(header);
}

/** Plain JSON.parse's value of the text (it keeps a `__proto__` key as data), or undefined when it is not JSON. */
function plainJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/** The path of the first key secure-json-parse refuses: `__proto__`, or a `constructor` object with a `prototype` key. */
function pollutingKeyPath(value: unknown, path: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const found = pollutingKeyPath(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, child] of Object.entries(value)) {
    const here = joinPath(path, key);
    if (key === '__proto__') return here;
    if (key === 'constructor' && typeof child === 'object' && child !== null && Object.hasOwn(child, 'prototype')) return here;
    const found = pollutingKeyPath(child, here);
    if (found) return found;
  }
  return undefined;
}

/**
 * A request body -> its JSON value, or the error the client gets: a BAD_REQUEST for a body that is not
 * JSON in UTF-8, a VALIDATION_ERROR naming the path of a value no field can store (NUL, an unpaired
 * surrogate, a number that overflows to infinity or that a double would round) or of a key that would
 * reach an object's prototype.
 * The one place JSON enters the API.
 */
export function parseJsonBody(contentType: string | undefined, body: Buffer): unknown {
  if (!isJsonContentType(contentType)) throw AppError.badRequest('Content-Type must be application/json (UTF-8)');
  if (!isUtf8(body)) throw AppError.badRequest('Request body is not valid UTF-8');
  const text = body.toString('utf8');
  if (text.trim() === '') return undefined;
  if (nestingDepth(text) > MAX_JSON_DEPTH) throw AppError.badRequest(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
  let value: unknown;
  try {
    value = secureJson.parse(text);
  } catch {
    const plain = plainJson(text);
    if (!plain) throw AppError.badRequest('Request body is not valid JSON');
    // Valid JSON that only a prototype key spoils: no contract has such a property, so it is an unknown one.
    throw AppError.validation(pollutingKeyPath(plain.value, '') ?? 'body', 'is not a known property');
  }
  assertStorableJson(value, '', text);
  const inexact = inexactNumber(text);
  if (inexact !== undefined) {
    const path = pathOfNumber(value, Number(inexact)) ?? 'body';
    throw AppError.validation(path, `has more significant digits than a number keeps exactly (${inexact}); send at most 15, or a text field`);
  }
  return value;
}

/**
 * A body still arriving `timeoutMs` after its headers fails with a 400, and the connection closes: a client
 * that sends less than its Content-Length and waits would otherwise hold a connection for ever. The body
 * is read through a stream of its own, so that failing it leaves the socket to carry the answer.
 */
function limitBodyTime(request: FastifyRequest, reply: FastifyReply, payload: Readable, timeoutMs: number): Readable {
  // Without a body, or with all of it already read by Node's parser, there is nothing to wait for; one
  // declared over the limit is refused before it is read, and Node drops the rest as it comes.
  if (request.raw.complete || Number(request.headers['content-length']) > BODY_LIMIT_BYTES) return payload;
  const body = new PassThrough();
  const timer = setTimeout(() => {
    reply.header('Connection', 'close');
    payload.unpipe(body);
    body.destroy(AppError.badRequest('The request body was not received in time'));
  }, timeoutMs);
  timer.unref();
  payload.once('end', () => clearTimeout(timer));
  // Answered before the body was read (one over the size limit): the rest is read and dropped, as Node
  // does for a request nobody consumed, so a client still sending reads its answer.
  reply.raw.once('finish', () => {
    clearTimeout(timer);
    if (request.raw.complete) return;
    payload.unpipe(body);
    payload.resume();
  });
  reply.raw.once('close', () => clearTimeout(timer));
  return payload.pipe(body);
}

/**
 * JSON bodies (an empty one counts as none), the request id header and metrics. Fastify's own failures
 * (parsing, body size) reach Nest's exception layer and leave through AllExceptionsFilter.
 */
export function configureFastify(app: FastifyInstance, bodyTimeoutMs: number): void {
  app.removeAllContentTypeParsers();
  app.addHook('preParsing', async (request, reply, payload) => limitBodyTime(request, reply, payload, bodyTimeoutMs));
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    try {
      done(null, parseJsonBody(request.headers['content-type'], body as Buffer));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  // Hooks of every request that wait for nothing take `done` rather than making a promise each.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const labels = { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
    done();
  });
}
