import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CreateEmailAddressBody, DomainsPatterns, EmailAddressView, PageQuery } from '@contracts';
import { CallerOf, RequireScope } from '../../auth/require-scope';
import { Caller, ServiceBus } from '../../bus/service-bus';
import { ResourceIdPipe } from '../../http/resource-id.pipe';
import { ApiData } from '../../openapi/api-data.decorator';
import { DomainsPlanGuard } from './domains-plan.guard';

@ApiTags('domains')
@ApiBearerAuth()
@UseGuards(DomainsPlanGuard)
@Controller('domains/:domain_id/emails')
export class EmailAddressesController {
  constructor(private readonly bus: ServiceBus) {}

  @Get()
  @RequireScope('domains:read')
  @ApiOperation({ operationId: 'listEmailAddresses', summary: "List the domain's email addresses" })
  @ApiData(EmailAddressView)
  @ApiParam({ name: 'domain_id', format: 'uuid' })
  list(@CallerOf() caller: Caller, @Param('domain_id', ResourceIdPipe) domainId: string, @Query() query: PageQuery) {
    return this.bus.send(DomainsPatterns.listEmails, caller, { domainId, page: query.page, limit: query.limit });
  }

  @Post()
  @HttpCode(201)
  @RequireScope('domains:write')
  @ApiOperation({ operationId: 'createEmailAddress', summary: 'Create an email address on an active domain' })
  @ApiData(EmailAddressView, 201)
  @ApiParam({ name: 'domain_id', format: 'uuid' })
  create(@CallerOf() caller: Caller, @Param('domain_id', ResourceIdPipe) domainId: string, @Body() body: CreateEmailAddressBody) {
    return this.bus.send(DomainsPatterns.createEmail, caller, { domainId, local_part: body.local_part, is_primary: body.is_primary });
  }
}
