import { Injectable } from '@nestjs/common';
import { AimSettings, compileAim, WebhookAim } from './webhook-aim';

const MAX_HELD = 10_000;

/** A webhook as the fan-out reads it: its aim as stored. */
export interface AimedWebhook {
  id: string;
  /**
   * The webhook's AimSettings as JSON text, null when it has neither filter nor watched fields. Postgres
   * writes equal settings as equal text (jsonb is kept in one form), so the text names the compiled aim.
   */
  aim: string | null;
}

/**
 * The fan-out's compiled aims, by their settings: compiled once, whichever webhooks have them and however
 * often the webhooks are read again, and one object for webhooks with equal settings, which the aim index
 * then tests once per event for all of them. A changed aim (an update, or the filter_error a recheck sets)
 * is other text, compiled anew.
 */
@Injectable()
export class WebhookAims {
  private readonly compiled = new Map<string, WebhookAim | undefined>();

  /** The webhook's compiled aim (undefined: it has none). */
  aimOf(webhook: AimedWebhook): WebhookAim | undefined {
    if (webhook.aim === null) return undefined;
    if (this.compiled.has(webhook.aim)) return this.compiled.get(webhook.aim);
    const aim = compileAim(JSON.parse(webhook.aim) as AimSettings);
    // Aims no webhook has any more stay behind; starting over now and then bounds them.
    if (this.compiled.size >= MAX_HELD) this.compiled.clear();
    this.compiled.set(webhook.aim, aim);
    return aim;
  }
}
