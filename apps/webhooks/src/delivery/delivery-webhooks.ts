import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { NATS_CONNECTION } from '@platform/service';
import type { NatsConnection } from 'nats';
import { HeldUntilChanged } from '../webhooks/held-until-changed';
import { SealedWebhookRecord } from '../webhooks/webhook-record';
import { WebhooksRepository } from '../webhooks/webhooks.repository';

/**
 * How long an attempt may go by a read of its webhook: a read older than this when the job's slot comes
 * is made again, and a webhook read for one attempt serves the next ones of this worker this long, unless
 * a change of the organization's webhooks is announced first.
 */
export const WEBHOOK_READ_FRESH_MS = 1_000;
/** Organizations whose webhooks one worker holds at most; the one read longest ago goes first. */
const MAX_ORGANIZATIONS = 10_000;

/**
 * The webhooks delivery jobs name, as their attempts read them: held for WEBHOOK_READ_FRESH_MS between
 * the attempts of one worker, so a steady stream of events costs no query per delivery, and forgotten as
 * soon as a change of the organization's webhooks is announced (HeldUntilChanged), so an update, a
 * rotated secret, a disable, a delete or a status change reaches the next attempt that starts after it is
 * answered. A webhook that is not there is held as such (null).
 */
@Injectable()
export class DeliveryWebhooks implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('DeliveryWebhooks');
  private readonly held = new HeldUntilChanged<SealedWebhookRecord | null>(WEBHOOK_READ_FRESH_MS, MAX_ORGANIZATIONS);

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly webhooks: WebhooksRepository,
  ) {}

  onModuleInit(): void {
    this.held.follow(this.nc, (error) => this.logger.warn({ err: error }, 'stopped following the NATS connection'));
  }

  onApplicationShutdown(): void {
    this.held.stop();
  }

  /**
   * The webhook a job of this organization names. Held under the job's organization: a webhook of another
   * one is refused by the attempt whatever is held for it.
   */
  async read(organizationId: string, webhookId: string): Promise<SealedWebhookRecord | undefined> {
    const now = Date.now();
    const held = this.held.get(organizationId, webhookId, now);
    if (held !== undefined) return held ?? undefined;
    const mark = this.held.mark();
    const webhook = await this.webhooks.findForDelivery(webhookId);
    this.held.keep(mark, organizationId, webhookId, webhook ?? null, now);
    return webhook;
  }
}
