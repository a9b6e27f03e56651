import { randomUUID } from 'node:crypto';
import type { OrgContext, ServiceReply } from '@contracts';
import { AppError } from '@platform/errors';
import { requestService } from '@platform/messaging';
import type { NatsConnection } from 'nats';

/**
 * Sends a message straight to a service's subject, as the gateway or another service would (skipping the
 * gateway's checks), and answers the reply as the service sent it: `{ok: true, ...}` or `{ok: false, error}`.
 */
export async function sendToService(nc: NatsConnection, subject: string, org: OrgContext, params: object): Promise<ServiceReply<any>> {
  try {
    return { ok: true, ...(await requestService(nc, subject, { org, requestId: randomUUID(), callId: randomUUID(), timeoutMs: 10_000, params })) };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, error: error.toBody() };
    throw error;
  }
}
