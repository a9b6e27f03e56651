import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';

export class CreateDomainBody {
  @ApiProperty({ example: 'mail.example.com', description: 'Hostname with at least two labels, no trailing dot' })
  @IsString()
  @MinLength(1)
  @MaxLength(253)
  domain!: string;
}
