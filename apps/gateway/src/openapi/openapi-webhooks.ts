import type { OperationObject, ParameterObject, PathItemObject } from '@nestjs/swagger';
import { receivedEventTypes, WEBHOOK_HEADERS } from '@contracts';

const SIGNED_HEADERS: ParameterObject[] = [
  { name: WEBHOOK_HEADERS.standardId, in: 'header', required: true, description: 'The event id: the same on every attempt, for de-duplication', schema: { type: 'string', format: 'uuid' } },
  { name: WEBHOOK_HEADERS.standardTimestamp, in: 'header', required: true, description: 'Unix seconds of this attempt; signed', schema: { type: 'string', pattern: '^[0-9]+$' } },
  {
    name: WEBHOOK_HEADERS.standardSignature,
    in: 'header',
    required: true,
    description: 'Standard Webhooks: `v1,` and the base64 HMAC-SHA-256 of `{webhook-id}.{webhook-timestamp}.{body}` per signing secret, space-separated during a rotation',
    schema: { type: 'string' },
  },
  { name: WEBHOOK_HEADERS.event, in: 'header', required: true, description: 'The event kind, as the payload\'s `event`', schema: { type: 'string' } },
];

/** `row.created` -> `onRowCreated`. */
function operationIdOf(kind: string): string {
  return `on${kind.replace(/(^|[._-])([a-z])/g, (_, _separator: string, letter: string) => letter.toUpperCase())}`;
}

/**
 * The OpenAPI 3.1 `webhooks` section: one entry per event kind a receiver can get, whose request body is
 * the kind's payload class with `event` fixed to the kind (from the same catalogue as `GET /event-types`).
 */
export function webhooksSection(): Record<string, PathItemObject> {
  return Object.fromEntries(
    receivedEventTypes().map(([kind, type]): [string, PathItemObject] => {
      const post: OperationObject = {
        operationId: operationIdOf(kind),
        summary: kind,
        description: `${type.description} Answer any 2xx within 30 s; verify the signature first (docs/webhooks.md).`,
        tags: ['webhooks'],
        // The receiver authenticates the request by its signature, not by an API key.
        security: [],
        parameters: SIGNED_HEADERS,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { allOf: [{ $ref: `#/components/schemas/${type.payload.name}` }], type: 'object', properties: { event: { const: kind } }, required: ['event'] } as never,
            },
          },
        },
        responses: { '200': { description: 'Any 2xx within 30 s acknowledges the delivery; anything else is a failure, retried on the schedule' } },
      };
      return [kind, { post }];
    }),
  );
}
