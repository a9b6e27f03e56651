import { ApiProperty } from '@nestjs/swagger';
import { IsString, IsUUID, MaxLength, MinLength } from 'class-validator';
import { PageQuery } from '../pagination';

export class CreateDomainBody {
  @ApiProperty({ example: 'mail.example.com', description: 'Hostname with at least two labels, no trailing dot' })
  @IsString()
  @MinLength(1)
  @MaxLength(253)
  domain!: string;
}

/** `params` of the messages about one domain (`domains.list` takes PageQuery, `domains.create` CreateDomainBody). */
export class DomainIdParams {
  @IsUUID()
  domainId!: string;
}

export class ListEmailAddressesParams extends PageQuery {
  @IsUUID()
  domainId!: string;
}
