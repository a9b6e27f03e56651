import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CreateTableBody, PageQuery, TablesPatterns, UpdateTableBody } from '@contracts';
import { CallerOf, RequireScope } from '../../auth/require-scope';
import { Caller, ServiceBus } from '../../bus/service-bus';
import { ResourceIdPipe } from '../../http/resource-id.pipe';

@ApiTags('tables')
@ApiBearerAuth()
@Controller('tables')
export class TablesController {
  constructor(private readonly bus: ServiceBus) {}

  @Get()
  @RequireScope('tables:read')
  @ApiOperation({ summary: 'List tables' })
  list(@CallerOf() caller: Caller, @Query() query: PageQuery) {
    return this.bus.send(TablesPatterns.list, caller, { page: query.page, limit: query.limit });
  }

  @Get(':tableId')
  @RequireScope('tables:read')
  @ApiOperation({ summary: 'A table with its fields' })
  @ApiParam({ name: 'tableId', format: 'uuid' })
  get(@CallerOf() caller: Caller, @Param('tableId', ResourceIdPipe) tableId: string) {
    return this.bus.send(TablesPatterns.get, caller, { tableId });
  }

  @Post()
  @HttpCode(201)
  @RequireScope('tables:write')
  @ApiOperation({ summary: 'Create a table' })
  create(@CallerOf() caller: Caller, @Body() body: CreateTableBody) {
    return this.bus.send(TablesPatterns.create, caller, { body });
  }

  @Patch(':tableId')
  @RequireScope('tables:write')
  @ApiOperation({ summary: 'Rename, describe, and add, change or remove fields' })
  @ApiParam({ name: 'tableId', format: 'uuid' })
  update(@CallerOf() caller: Caller, @Param('tableId', ResourceIdPipe) tableId: string, @Body() body: UpdateTableBody) {
    return this.bus.send(TablesPatterns.update, caller, { tableId, body });
  }

  @Delete(':tableId')
  @RequireScope('tables:write')
  @ApiOperation({ summary: 'Delete a table and its rows' })
  @ApiParam({ name: 'tableId', format: 'uuid' })
  remove(@CallerOf() caller: Caller, @Param('tableId', ResourceIdPipe) tableId: string) {
    return this.bus.send(TablesPatterns.remove, caller, { tableId });
  }
}
