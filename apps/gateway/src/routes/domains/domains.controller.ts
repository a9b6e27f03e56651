import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CreateDomainBody, DomainVerification, DomainView, DomainsPatterns, PageQuery } from '@contracts';
import { CallerOf, RequireScope } from '../../auth/require-scope';
import { Caller, ServiceBus } from '../../bus/service-bus';
import { ResourceIdPipe } from '../../http/resource-id.pipe';
import { ApiData } from '../../openapi/api-data.decorator';
import { DomainsPlanGuard } from './domains-plan.guard';

@ApiTags('domains')
@ApiBearerAuth()
@UseGuards(DomainsPlanGuard)
@Controller('domains')
export class DomainsController {
  constructor(private readonly bus: ServiceBus) {}

  @Get()
  @RequireScope('domains:read')
  @ApiOperation({ operationId: 'listDomains', summary: 'List domains' })
  @ApiData(DomainView)
  list(@CallerOf() caller: Caller, @Query() query: PageQuery) {
    return this.bus.send(DomainsPatterns.list, caller, { page: query.page, limit: query.limit });
  }

  @Post()
  @HttpCode(201)
  @RequireScope('domains:write')
  @ApiOperation({ operationId: 'createDomain', summary: 'Add a domain; the answer lists the DNS records to configure' })
  @ApiData(DomainView, 201)
  create(@CallerOf() caller: Caller, @Body() body: CreateDomainBody) {
    return this.bus.send(DomainsPatterns.create, caller, { domain: body.domain });
  }

  @Get(':domain_id')
  @RequireScope('domains:read')
  @ApiOperation({ operationId: 'getDomain', summary: 'A domain with the DNS records to configure' })
  @ApiData(DomainView)
  @ApiParam({ name: 'domain_id', format: 'uuid' })
  get(@CallerOf() caller: Caller, @Param('domain_id', ResourceIdPipe) domainId: string) {
    return this.bus.send(DomainsPatterns.get, caller, { domainId });
  }

  @Get(':domain_id/verify')
  @RequireScope('domains:read')
  @ApiOperation({ operationId: 'verifyDomain', summary: 'Check the DNS records live and move the status accordingly' })
  @ApiData(DomainVerification)
  @ApiParam({ name: 'domain_id', format: 'uuid' })
  verify(@CallerOf() caller: Caller, @Param('domain_id', ResourceIdPipe) domainId: string) {
    return this.bus.send(DomainsPatterns.verify, caller, { domainId });
  }

  @Delete(':domain_id')
  @RequireScope('domains:write')
  @ApiOperation({ operationId: 'deleteDomain', summary: 'Disconnect a domain and remove its email addresses' })
  @ApiParam({ name: 'domain_id', format: 'uuid' })
  remove(@CallerOf() caller: Caller, @Param('domain_id', ResourceIdPipe) domainId: string) {
    return this.bus.send(DomainsPatterns.remove, caller, { domainId });
  }
}
