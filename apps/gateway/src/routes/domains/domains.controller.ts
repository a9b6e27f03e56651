import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CreateDomainBody, DomainsPatterns, PageQuery } from '@contracts';
import { CallerOf, RequireScope } from '../../auth/require-scope';
import { Caller, ServiceBus } from '../../bus/service-bus';
import { ResourceIdPipe } from '../../http/resource-id.pipe';
import { DomainsPlanGuard } from './domains-plan.guard';

@ApiTags('domains')
@ApiBearerAuth()
@UseGuards(DomainsPlanGuard)
@Controller('domains')
export class DomainsController {
  constructor(private readonly bus: ServiceBus) {}

  @Get()
  @RequireScope('domains:read')
  @ApiOperation({ summary: 'List domains' })
  list(@CallerOf() caller: Caller, @Query() query: PageQuery) {
    return this.bus.send(DomainsPatterns.list, caller, { page: query.page, limit: query.limit });
  }

  @Post()
  @HttpCode(201)
  @RequireScope('domains:write')
  @ApiOperation({ summary: 'Add a domain; the answer lists the DNS records to configure' })
  create(@CallerOf() caller: Caller, @Body() body: CreateDomainBody) {
    return this.bus.send(DomainsPatterns.create, caller, { domain: body.domain });
  }

  @Get(':domainId')
  @RequireScope('domains:read')
  @ApiOperation({ summary: 'A domain with the DNS records to configure' })
  @ApiParam({ name: 'domainId', format: 'uuid' })
  get(@CallerOf() caller: Caller, @Param('domainId', ResourceIdPipe) domainId: string) {
    return this.bus.send(DomainsPatterns.get, caller, { domainId });
  }

  @Get(':domainId/verify')
  @RequireScope('domains:read')
  @ApiOperation({ summary: 'Check the DNS records live and move the status accordingly' })
  @ApiParam({ name: 'domainId', format: 'uuid' })
  verify(@CallerOf() caller: Caller, @Param('domainId', ResourceIdPipe) domainId: string) {
    return this.bus.send(DomainsPatterns.verify, caller, { domainId });
  }

  @Delete(':domainId')
  @RequireScope('domains:write')
  @ApiOperation({ summary: 'Disconnect a domain and remove its email addresses' })
  @ApiParam({ name: 'domainId', format: 'uuid' })
  remove(@CallerOf() caller: Caller, @Param('domainId', ResourceIdPipe) domainId: string) {
    return this.bus.send(DomainsPatterns.remove, caller, { domainId });
  }
}
