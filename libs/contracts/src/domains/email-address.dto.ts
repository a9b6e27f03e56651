import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, Length, Matches } from 'class-validator';

/** RFC 5322 dot-atom: runs of atext separated by single dots, none leading or trailing. */
export const DOT_ATOM = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]+(?:\.[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]+)*$/;

export class CreateEmailAddressBody {
  @ApiProperty({ example: 'support', description: 'The part before the at sign: a dot-atom of 1..64 characters, stored lowercased' })
  @IsString()
  @Length(1, 64)
  @Matches(DOT_ATOM, { message: 'local_part must be a dot-atom (letters, digits, !#$%&\'*+-/=?^_`{|}~ and single inner dots)' })
  local_part!: string;

  @ApiPropertyOptional({ default: false, description: 'Makes this the domain\'s primary address; the previous primary is demoted' })
  @IsOptional()
  @IsBoolean()
  is_primary?: boolean;
}
