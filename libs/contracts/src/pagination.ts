import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

const DECIMAL_INTEGER = /^(0|[1-9][0-9]{0,15})$/;

/**
 * A query parameter that is an integer: only its plain decimal form (`10`) becomes a number; anything else
 * (`0x10`, `1e1`, `10.0`, `+10`, ` 10`, `010`, a repeated parameter) stays as sent, so `@IsInt` refuses it.
 */
export function QueryInteger(): PropertyDecorator {
  return Transform(({ value }) => (typeof value === 'string' && DECIMAL_INTEGER.test(value) ? Number(value) : value));
}

export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 100;

/** `limit` 1..100 (default 50), for every list endpoint. */
export class LimitQuery {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PAGE_LIMIT, default: DEFAULT_PAGE_LIMIT })
  @IsOptional()
  @QueryInteger()
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_LIMIT)
  limit: number = DEFAULT_PAGE_LIMIT;
}

/**
 * The rule of a `page` query parameter: an optional integer from 1 (the first, the default) to 1,000,000.
 * Listed last first, the order in which stacked decorators apply, so a refusal names the same check.
 */
export const PageNumber = () =>
  applyDecorators(Max(1_000_000), Min(1), IsInt(), QueryInteger(), IsOptional(), ApiPropertyOptional({ type: 'integer', minimum: 1, default: 1 }));

/** `page` >= 1 (default 1) and `limit` 1..100 (default 50), for every list endpoint. */
export class PageQuery extends LimitQuery {
  @PageNumber()
  page: number = 1;
}

export function pageOffset({ page, limit }: { page: number; limit: number }): number {
  return (page - 1) * limit;
}
