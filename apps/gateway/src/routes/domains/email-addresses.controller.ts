import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CreateEmailAddressBody, DomainsPatterns, PageQuery } from '@contracts';
import { CallerOf, RequireScope } from '../../auth/require-scope';
import { Caller, ServiceBus } from '../../bus/service-bus';
import { ResourceIdPipe } from '../../http/resource-id.pipe';
import { DomainsPlanGuard } from './domains-plan.guard';

@ApiTags('domains')
@ApiBearerAuth()
@UseGuards(DomainsPlanGuard)
@Controller('domains/:domainId/emails')
export class EmailAddressesController {
  constructor(private readonly bus: ServiceBus) {}

  @Get()
  @RequireScope('domains:read')
  @ApiOperation({ summary: "List the domain's email addresses" })
  @ApiParam({ name: 'domainId', format: 'uuid' })
  list(@CallerOf() caller: Caller, @Param('domainId', ResourceIdPipe) domainId: string, @Query() query: PageQuery) {
    return this.bus.send(DomainsPatterns.listEmails, caller, { domainId, page: query.page, limit: query.limit });
  }

  @Post()
  @HttpCode(201)
  @RequireScope('domains:write')
  @ApiOperation({ summary: 'Create an email address on an active domain' })
  @ApiParam({ name: 'domainId', format: 'uuid' })
  create(@CallerOf() caller: Caller, @Param('domainId', ResourceIdPipe) domainId: string, @Body() body: CreateEmailAddressBody) {
    return this.bus.send(DomainsPatterns.createEmail, caller, { domainId, local_part: body.local_part, is_primary: body.is_primary });
  }
}
