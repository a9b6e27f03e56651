import { Injectable } from '@nestjs/common';
import { AimSettings, compileAim, WebhookAim } from './webhook-aim';

const MAX_HELD = 10_000;

/** A webhook as the fan-out reads it: enough to know which version of its aim it holds. */
export interface AimedWebhook extends AimSettings {
  id: string;
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
    if (webhook.filter === null && webhook.watch_fields === null) return undefined;
    // What the aim is made of, not when it changed: two updates within a millisecond still differ here.
    const version = JSON.stringify([webhook.filter, webhook.filter_fields, webhook.watch_fields, webhook.filter_error]);
    const held = this.compiled.get(webhook.id);
    if (held?.version === version) return held.aim;
    const aim = compileAim(webhook);
    // Deleted webhooks leave entries behind; starting over now and then bounds them.
    if (this.compiled.size >= MAX_HELD) this.compiled.clear();
    this.compiled.set(webhook.id, { version, aim });
    return aim;
  }
}
