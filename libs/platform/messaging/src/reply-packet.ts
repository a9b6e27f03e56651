import type { ServiceReply, ServiceResult } from '@contracts';
import { AppError, isErrorBody } from '@platform/errors';

/**
 * A reply packet as every service writes it: Nest's packet shape (`id`, `isDisposed`, `response`), with the
 * response last, so that a caller which only passes the result on (the gateway, into its HTTP answer) cuts
 * the result's JSON out of the text instead of parsing and writing it again (for a batch of 100 rows, about
 * 30 KB each way).
 */
export function replyPacketText(id: string | undefined, response: ServiceReply): string {
  return `{"id":${JSON.stringify(id ?? null)},"isDisposed":true,"response":${JSON.stringify(response)}}`;
}

const RESPONSE_AT = ',"isDisposed":true,"response":';
const SUCCESS = '{"ok":true';

/**
 * The result of a reply packet as JSON text (`{"data":...}`): cut out of a success written by
 * replyPacketText, read from any other success; a failure reply throws its AppError, anything else an Error.
 */
export function resultJsonOf(packet: string, pattern: string): string {
  const at = packet.indexOf(RESPONSE_AT);
  // The packet starts with `{"id":<a uuid or null>`, so the first such run is the one replyPacketText wrote.
  if (at > 0 && at <= 48 && packet.startsWith(SUCCESS, at + RESPONSE_AT.length) && packet.endsWith('}}')) {
    const rest = packet.slice(at + RESPONSE_AT.length + SUCCESS.length, -1);
    return rest === '}' ? '{}' : `{${rest.slice(1)}`;
  }
  return JSON.stringify(resultOf(packet, pattern));
}

function resultOf(packet: string, pattern: string): ServiceResult {
  let reply: ServiceReply | undefined;
  try {
    reply = (JSON.parse(packet) as { response?: ServiceReply }).response;
  } catch {
    reply = undefined;
  }
  if (reply?.ok === true) {
    const { ok: _ok, ...result } = reply;
    return result;
  }
  if (reply?.ok === false && isErrorBody(reply.error)) throw AppError.fromBody(reply.error);
  throw new Error(`malformed reply to ${pattern}`);
}
