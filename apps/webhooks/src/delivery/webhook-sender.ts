import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { signStandardWebhook, signWebhookBody, WEBHOOK_HEADERS } from '@contracts';
import { request } from 'undici';
import { TargetRefusedError, TargetResolver } from '../targets/target-resolver';
import { PinnedAgents } from './pinned-agents';

/** What the test send shows of the receiver's answer. */
export const RESPONSE_BODY_LIMIT = 4096;
/** What a delivery record keeps of it. */
export const RECORDED_RESPONSE_LIMIT = 1024;

export interface WebhookRequest {
  url: string;
  /** The secrets that sign: the current one first, then one being rotated out, if any. */
  secrets: readonly string[];
  /** The exact bytes that are signed and sent. */
  body: string;
  eventType: string;
  eventId: string;
  timeoutMs: number;
  /** How many bytes of the answer to keep as text; the rest is read and dropped. */
  responseLimit: number;
}

export interface WebhookOutcome {
  deliveryId: string;
  startedAt: Date;
  /** 0 when no response arrived. */
  statusCode: number;
  durationMs: number;
  success: boolean;
  errorMessage?: string;
  /** The receiver did not answer within the deadline. */
  timedOut: boolean;
  /** The start of the answer as text; '' when none arrived. */
  responseBody: string;
}

/** What a delivery record keeps of an attempt's answer: its first bytes as text, nothing when none arrived. */
export function recordedResponse(outcome: Pick<WebhookOutcome, 'statusCode' | 'responseBody'>): string | undefined {
  if (outcome.statusCode === 0) return undefined;
  const bytes = Buffer.from(outcome.responseBody, 'utf8');
  return bytes.length <= RECORDED_RESPONSE_LIMIT ? outcome.responseBody : new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, RECORDED_RESPONSE_LIMIT));
}

/** What a delivery record keeps of an attempt's outcome, a queued attempt's or a test send's. */
export function attemptRecord(outcome: WebhookOutcome) {
  const { deliveryId: id, statusCode, durationMs, success, errorMessage, startedAt: createdAt } = outcome;
  return { id, statusCode, durationMs, success, errorMessage, responseBody: recordedResponse(outcome), createdAt };
}

/** Signs and POSTs one webhook request: checked address only, no redirects, one deadline for it all. */
export class WebhookSender {
  constructor(
    private readonly resolver: TargetResolver,
    private readonly agents: PinnedAgents,
  ) {}

  async send(webhook: WebhookRequest): Promise<WebhookOutcome> {
    const deliveryId = randomUUID();
    const startedAt = new Date();
    const timestamp = Math.floor(startedAt.getTime() / 1000);
    const started = performance.now();
    const signal = AbortSignal.timeout(webhook.timeoutMs);
    const elapsed = () => Math.round(performance.now() - started);
    let statusCode = 0;
    try {
      const url = new URL(webhook.url);
      const target = await this.resolver.resolve(url);
      if (signal.aborted) throw signal.reason;
      const response = await request(url, {
        method: 'POST',
        dispatcher: this.agents.for(url.origin, target),
        signal,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'org-data-platform-webhooks/1',
          [WEBHOOK_HEADERS.signature]: signWebhookBody(webhook.secrets[0], webhook.body),
          [WEBHOOK_HEADERS.event]: webhook.eventType,
          [WEBHOOK_HEADERS.eventId]: webhook.eventId,
          [WEBHOOK_HEADERS.delivery]: deliveryId,
          [WEBHOOK_HEADERS.timestamp]: String(timestamp),
          [WEBHOOK_HEADERS.standardId]: webhook.eventId,
          [WEBHOOK_HEADERS.standardTimestamp]: String(timestamp),
          [WEBHOOK_HEADERS.standardSignature]: signStandardWebhook(webhook.secrets, webhook.eventId, timestamp, webhook.body),
        },
        body: webhook.body,
      });
      statusCode = response.statusCode;
      const responseBody = await readPrefix(response.body, webhook.responseLimit);
      const success = statusCode >= 200 && statusCode < 300;
      return {
        deliveryId,
        startedAt,
        statusCode,
        durationMs: elapsed(),
        success,
        timedOut: false,
        responseBody,
        ...(success ? {} : { errorMessage: describeStatus(statusCode) }),
      };
    } catch (error) {
      const errorMessage = describeError(error, signal, webhook.timeoutMs);
      return { deliveryId, startedAt, statusCode, durationMs: elapsed(), success: false, timedOut: signal.aborted, responseBody: '', errorMessage };
    }
  }
}

function describeStatus(status: number): string {
  if (status >= 300 && status < 400) return `Receiver answered ${status}; redirects are not followed`;
  return `Receiver answered ${status}`;
}

function describeError(error: unknown, signal: AbortSignal, timeoutMs: number): string {
  if (signal.aborted) return `Timed out after ${timeoutMs} ms`;
  if (error instanceof TargetRefusedError) return `Target refused: ${error.message}`;
  const { code, message } = error as { code?: string; message?: string };
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const detail = code ?? cause?.code;
  return `Request failed${detail ? ` (${detail})` : ''}: ${cause?.message ?? message ?? 'unknown error'}`.slice(0, 500);
}

/** Reads at most `limit` bytes of a body, then drops the rest of it. */
async function readPrefix(body: AsyncIterable<Buffer> & { destroy(): unknown }, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= limit) break;
  }
  body.destroy();
  // Postgres text holds no NUL; the answer is kept to be read, so the character stands in for it.
  return new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks).subarray(0, limit)).replace(/\0/g, '\uFFFD');
}
