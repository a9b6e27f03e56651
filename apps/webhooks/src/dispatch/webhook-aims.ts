import { Injectable } from '@nestjs/common';
import { AimSettings, compileAim, WebhookAim } from './webhook-aim';

const MAX_HELD = 10_000;

/** A webhook as the fan-out reads it: enough to know which version of its aim it holds. */
export interface AimedWebhook {
  id: string;
  /**
   * Postgres's version of the webhook's row (`xmin`): every update gives the row a new one, so an aim is
   * compiled again after any change of the webhook (its filter, or the filter_error a recheck sets).
   */
  row_version: string;
  /**
   * The webhook's AimSettings as JSON text, null when it has neither filter nor watched fields. Text, so
   * that the fan-out parses it only when the version changed, not for every batch it reads the webhooks.
   */
  aim: string | null;
}

/**
 * The fan-out's compiled aims, one per webhook, compiled again only when its aim changed (an update, or
 * its table losing a named field): a batch tests every (event, webhook) pair without parsing a filter.
 */
@Injectable()
export class WebhookAims {
  private readonly compiled = new Map<string, { version: string; aim: WebhookAim | undefined }>();

  /** The webhook's compiled aim (undefined: it has none); the fan-out asks once per webhook and batch. */
  aimOf(webhook: AimedWebhook): WebhookAim | undefined {
    if (webhook.aim === null) return undefined;
    const held = this.compiled.get(webhook.id);
    if (held?.version === webhook.row_version) return held.aim;
    const aim = compileAim(JSON.parse(webhook.aim) as AimSettings);
    // Deleted webhooks leave entries behind; starting over now and then bounds them.
    if (this.compiled.size >= MAX_HELD) this.compiled.clear();
    this.compiled.set(webhook.id, { version: webhook.row_version, aim });
    return aim;
  }
}
