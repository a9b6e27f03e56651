import { AppError, ErrorCode } from '@platform/errors';
import type { AuthenticatedKey } from '@identity';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from '../http/error-reply';
import { isConsolePath } from '../http/console-static';
import { isPublicDocsPath } from '../openapi/openapi-routes';
import { ApiKeyAuthenticator } from './api-key.authenticator';
import { RateLimitDecision, RateLimiter } from './rate-limiter';

declare module 'fastify' {
  interface FastifyRequest {
    auth?: AuthenticatedKey;
  }
}

/** The scheme in any case (RFC 9110: auth schemes are case-insensitive), one space, the key. */
const BEARER = /^Bearer ([^\s]+)$/i;

/** The API key a request presents as `Authorization: Bearer <key>`, if it presents one in that form. */
export function bearerToken(request: FastifyRequest): string | undefined {
  return BEARER.exec(request.headers.authorization ?? '')?.[1];
}

function setRateLimitHeaders(reply: FastifyReply, decision: RateLimitDecision): void {
  reply.header('X-RateLimit-Limit', decision.limit);
  reply.header('X-RateLimit-Remaining', decision.remaining);
  reply.header('X-RateLimit-Reset', decision.resetAt);
}

/**
 * Runs before routing and body parsing, for every request: rate limit (per key, or per client address
 * when no valid key is given, so that key guessing is throttled too), then authentication.
 */
export function registerRequestAuth(app: FastifyInstance, authenticator: ApiKeyAuthenticator, limiter: RateLimiter): void {
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const token = bearerToken(request);
    const auth = token ? await authenticator.authenticate(token) : undefined;
    const decision = await limiter.consume(auth ? `key:${auth.keyId}` : `ip:${request.ip}`);
    setRateLimitHeaders(reply, decision);
    if (!decision.allowed) {
      reply.header('Retry-After', decision.retryAfterSeconds);
      return sendError(reply, new AppError(ErrorCode.RateLimited, `Rate limit of ${decision.limit} requests per minute exceeded`));
    }
    // The API's own description and the console's page are readable without a key; everything else needs one.
    if (!auth && (isPublicDocsPath(request.url) || isConsolePath(request.url))) return;
    if (!auth) {
      const message = token ? 'Invalid API key' : 'Missing or malformed Authorization header; expected "Bearer <API key>"';
      return sendError(reply, new AppError(ErrorCode.Unauthorized, message));
    }
    request.auth = auth;
  });
}
