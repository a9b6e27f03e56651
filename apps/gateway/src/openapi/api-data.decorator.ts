import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';

/**
 * Declares what a route answers in `data` (one item, for paginated lists); the OpenAPI document puts it
 * inside the envelope, so a controller names only its own DTO: `@ApiData(TableDetail)`,
 * `@ApiData(WebhookCreated, 201)`.
 */
export function ApiData(type: Type<unknown>, status: 200 | 201 | 202 = 200) {
  return applyDecorators(ApiExtraModels(type), ApiResponse({ status, schema: { $ref: getSchemaPath(type) } }));
}

/** Declares an array of items in `data`, for answers that are not paginated lists (batches). */
export function ApiDataList(type: Type<unknown>, status: 200 | 201 | 202 = 200) {
  return applyDecorators(ApiExtraModels(type), ApiResponse({ status, schema: { type: 'array', items: { $ref: getSchemaPath(type) } } }));
}
