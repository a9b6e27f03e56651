import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CreateTableBody, PageQuery, TableDetail, TableListItem, TablesPatterns, UpdateTableBody } from '@contracts';
import { CallerOf, RequireScope } from '../../auth/require-scope';
import { Caller, ServiceBus } from '../../bus/service-bus';
import { ResourceIdPipe } from '../../http/resource-id.pipe';
import { ApiData } from '../../openapi/api-data.decorator';

@ApiTags('tables')
@ApiBearerAuth()
@Controller('tables')
export class TablesController {
  constructor(private readonly bus: ServiceBus) {}

  @Get()
  @RequireScope('tables:read')
  @ApiOperation({ operationId: 'listTables', summary: 'List tables' })
  @ApiData(TableListItem)
  list(@CallerOf() caller: Caller, @Query() query: PageQuery) {
    return this.bus.send(TablesPatterns.list, caller, { page: query.page, limit: query.limit });
  }

  @Get(':table_id')
  @RequireScope('tables:read')
  @ApiOperation({ operationId: 'getTable', summary: 'A table with its fields' })
  @ApiData(TableDetail)
  @ApiParam({ name: 'table_id', format: 'uuid' })
  get(@CallerOf() caller: Caller, @Param('table_id', ResourceIdPipe) tableId: string) {
    return this.bus.send(TablesPatterns.get, caller, { tableId });
  }

  @Post()
  @HttpCode(201)
  @RequireScope('tables:write')
  @ApiOperation({ operationId: 'createTable', summary: 'Create a table' })
  @ApiData(TableDetail, 201)
  create(@CallerOf() caller: Caller, @Body() body: CreateTableBody) {
    return this.bus.send(TablesPatterns.create, caller, { body });
  }

  @Patch(':table_id')
  @RequireScope('tables:write')
  @ApiOperation({ operationId: 'updateTable', summary: 'Rename, describe, and add, change or remove fields' })
  @ApiData(TableDetail)
  @ApiParam({ name: 'table_id', format: 'uuid' })
  update(@CallerOf() caller: Caller, @Param('table_id', ResourceIdPipe) tableId: string, @Body() body: UpdateTableBody) {
    return this.bus.send(TablesPatterns.update, caller, { tableId, body });
  }

  @Delete(':table_id')
  @RequireScope('tables:write')
  @ApiOperation({ operationId: 'deleteTable', summary: 'Delete a table and its rows' })
  @ApiParam({ name: 'table_id', format: 'uuid' })
  remove(@CallerOf() caller: Caller, @Param('table_id', ResourceIdPipe) tableId: string) {
    return this.bus.send(TablesPatterns.remove, caller, { tableId });
  }
}
