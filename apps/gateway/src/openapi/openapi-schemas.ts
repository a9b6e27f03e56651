import type { ReferenceObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ERROR_CODES } from '@platform/errors';

type Schema = SchemaObject | ReferenceObject;

export const ERROR_RESPONSE = 'ErrorResponse';
export const PAGINATION = 'Pagination';
export const ref = (name: string): ReferenceObject => ({ $ref: `#/components/schemas/${name}` });

/** The generic parts of every answer: the error body and the pagination block. */
export const ENVELOPE_COMPONENTS: Record<string, SchemaObject> = {
  [ERROR_RESPONSE]: {
    type: 'object',
    description: 'Every failure, whatever the status.',
    required: ['success', 'error'],
    additionalProperties: false,
    properties: {
      success: { type: 'boolean', enum: [false] },
      error: {
        type: 'object',
        required: ['code', 'message'],
        additionalProperties: false,
        properties: {
          code: { type: 'string', enum: [...ERROR_CODES] },
          message: { type: 'string' },
          details: {
            type: 'object',
            description: 'For VALIDATION_ERROR: `field` (a path such as `fields[2].field_type`) and `reason`.',
            properties: { field: { type: 'string' }, reason: { type: 'string' } },
          },
        },
      },
    },
  },
  [PAGINATION]: {
    type: 'object',
    required: ['page', 'limit', 'total'],
    additionalProperties: false,
    properties: {
      page: { type: 'integer', minimum: 1 },
      limit: { type: 'integer', minimum: 1, maximum: 100 },
      total: { type: 'integer', minimum: 0 },
      next_cursor: { type: 'string', nullable: true, description: 'Row lists only: pass as `cursor` for the next page; null on the last page' },
    },
  },
};

export interface EnvelopeShape {
  /** The `data` member; omitted for answers that carry only a message. */
  data?: Schema;
  paginated?: boolean;
  message?: boolean;
}

/** `{success: true, data?, pagination?, message?}` around a route's data. */
export function envelopeOf({ data, paginated, message }: EnvelopeShape): SchemaObject {
  const properties: Record<string, Schema> = { success: { type: 'boolean', enum: [true] } };
  const required = ['success'];
  if (data) {
    properties.data = paginated ? { type: 'array', items: data } : data;
    required.push('data');
  }
  if (paginated) {
    properties.pagination = ref(PAGINATION);
    required.push('pagination');
  }
  if (message) {
    properties.message = { type: 'string' };
    if (!data) required.push('message');
  }
  return { type: 'object', required, additionalProperties: false, properties };
}
