import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQuery } from '../pagination';

export const MAX_FILTER_LENGTH = 8_192;

export class RowBody {
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'field values keyed by field slug' })
  @IsDefined()
  @IsObject()
  data!: Record<string, unknown>;
}

export class RowListQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'a field slug, created_at or updated_at', default: 'created_at' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  sort?: string;

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'asc' })
  @IsOptional()
  @IsIn(['asc', 'desc'])
  order?: 'asc' | 'desc';

  @ApiPropertyOptional({ description: 'URL-encoded JSON object of filter conditions', example: '{"status":"open"}' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_FILTER_LENGTH)
  filter?: string;
}
