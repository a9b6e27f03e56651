import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { AppError } from '@platform/errors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayConfig } from '../gateway.config';
import { bearerToken } from '../auth/request-auth.hook';
import { sendError } from '../http/error-reply';
import { IdempotencyRepository } from './idempotency.repository';
import { AnswerOwner, openAnswer, sealAnswer } from './sealed-answer';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when this request claimed its Idempotency-Key: its answer is stored (2xx) or the key released. */
    idempotencyKey?: AnswerOwner;
  }
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
const VALID_KEY = /^[\x20-\x7E]{1,255}$/;

/** A claim outlives the longest wait on a service, so only a gateway that died leaves one to lapse. */
export function idempotencyLeaseMs(config: GatewayConfig): number {
  return Math.max(60_000, 3 * config.NATS_REQUEST_TIMEOUT_MS);
}

/** The same key means the same request only with the same method, URL and body. */
function requestHash(request: FastifyRequest): Buffer {
  return createHash('sha256').update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`).digest();
}

/**
 * Idempotency-Key on every POST, once for every context: after authentication and body parsing, before
 * the route runs. The first request with a key claims it in Postgres; a repeat with the same body gets
 * the stored answer with `Idempotent-Replayed: true` and runs nothing; a different body, or a repeat
 * while the first still runs, is a CONFLICT. Only 2xx answers are kept, sealed so that only the API key
 * that made the request can read them back (`sealed-answer.ts`); anything else frees the key.
 * `leaseMs` bounds how long a claim of a gateway that died mid-request blocks a retry.
 */
export function registerIdempotency(app: FastifyInstance, keys: IdempotencyRepository, leaseMs: number): void {
  const logger = new Logger('Idempotency');

  const claimKey = async (request: FastifyRequest, reply: FastifyReply, header: string | string[], apiKey: string) => {
    if (typeof header !== 'string' || !VALID_KEY.test(header)) {
      return sendError(reply, AppError.validation('Idempotency-Key', 'must be 1 to 255 printable ASCII characters, sent once'));
    }
    const owner: AnswerOwner = { apiKey, organizationId: request.auth!.org.id, idempotencyKey: header };
    const claim = await keys.claim(owner.organizationId, header, requestHash(request), leaseMs);
    switch (claim.kind) {
      case 'claimed':
        request.idempotencyKey = owner;
        return;
      case 'replay': {
        const answer = openAnswer(owner, claim.response);
        if (answer === undefined) return sendError(reply, AppError.conflict('This Idempotency-Key was used by another API key'));
        return reply.code(claim.status).header(REPLAYED_HEADER, 'true').type('application/json; charset=utf-8').send(answer);
      }
      case 'different-request':
        return sendError(reply, AppError.conflict('This Idempotency-Key was already used with a different request'));
      case 'in-flight':
        return sendError(reply, AppError.conflict('A request with this Idempotency-Key is still in progress'));
    }
  };

  // Most requests carry no key: they pass without a promise of their own.
  app.addHook('preHandler', (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    const header = request.headers[IDEMPOTENCY_HEADER];
    const apiKey = request.method === 'POST' && header !== undefined && request.auth ? bearerToken(request) : undefined;
    if (!apiKey || header === undefined) return done();
    claimKey(request, reply, header, apiKey).then(() => done(), done);
  });

  // The answer is stored before the client sees it, so a retry right after it gets the replay.
  const storeAnswer = async (request: FastifyRequest, reply: FastifyReply, payload: unknown, claimed: AnswerOwner) => {
    request.idempotencyKey = undefined;
    try {
      if (reply.statusCode >= 200 && reply.statusCode < 300 && typeof payload === 'string') {
        await keys.complete(claimed.organizationId, claimed.idempotencyKey, reply.statusCode, sealAnswer(claimed, payload));
      } else {
        await keys.release(claimed.organizationId, claimed.idempotencyKey);
      }
    } catch (error) {
      // The answer itself stands; the claim lapses with its lease.
      logger.error({ err: error, requestId: request.id }, 'could not record the answer to an idempotent request');
    }
  };
  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: Error | null, payload?: unknown) => void) => {
    const claimed = request.idempotencyKey;
    if (!claimed) return done(null, payload);
    void storeAnswer(request, reply, payload, claimed).then(() => done(null, payload));
  });
}
