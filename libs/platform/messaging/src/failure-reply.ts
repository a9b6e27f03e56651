import type { Logger } from '@nestjs/common';
import { AppError } from '@platform/errors';
import { JSONCodec, Msg } from 'nats';

const codec = JSONCodec();

/**
 * Answers a request whose own reply could not be read or sent with a small INTERNAL_ERROR, so the caller
 * stops waiting; when even that cannot go, it is logged: a transport error never ends the process.
 */
export function replyInternalError(message: Msg, id: string | undefined, logger: Logger): void {
  if (!message.reply) return;
  try {
    message.respond(codec.encode({ id, response: { ok: false, error: AppError.internal().toBody() }, isDisposed: true }));
  } catch (error) {
    logger.error({ err: error }, 'could not answer a failed request');
  }
}
