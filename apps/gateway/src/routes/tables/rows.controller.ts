import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { RowBody, RowListQuery, TablesPatterns } from '@contracts';
import { CallerOf, RequireScope } from '../../auth/require-scope';
import { Caller, ServiceBus } from '../../bus/service-bus';
import { ResourceIdPipe } from '../../http/resource-id.pipe';

@ApiTags('rows')
@ApiBearerAuth()
@ApiParam({ name: 'tableId', format: 'uuid' })
@Controller('tables/:tableId/rows')
export class RowsController {
  constructor(private readonly bus: ServiceBus) {}

  @Get()
  @RequireScope('tables:read')
  @ApiOperation({ summary: 'List rows, filtered and sorted' })
  list(@CallerOf() caller: Caller, @Param('tableId', ResourceIdPipe) tableId: string, @Query() query: RowListQuery) {
    const { page, limit, sort, order, filter } = query;
    return this.bus.send(TablesPatterns.listRows, caller, { tableId, page, limit, sort, order, filter });
  }

  @Get(':rowId')
  @RequireScope('tables:read')
  @ApiOperation({ summary: 'One row' })
  @ApiParam({ name: 'rowId', format: 'uuid' })
  get(@CallerOf() caller: Caller, @Param('tableId', ResourceIdPipe) tableId: string, @Param('rowId', ResourceIdPipe) rowId: string) {
    return this.bus.send(TablesPatterns.getRow, caller, { tableId, rowId });
  }

  @Post()
  @HttpCode(201)
  @RequireScope('tables:write')
  @ApiOperation({ summary: 'Create a row' })
  create(@CallerOf() caller: Caller, @Param('tableId', ResourceIdPipe) tableId: string, @Body() body: RowBody) {
    return this.bus.send(TablesPatterns.createRow, caller, { tableId, data: body.data });
  }

  @Patch(':rowId')
  @RequireScope('tables:write')
  @ApiOperation({ summary: 'Merge values into a row' })
  @ApiParam({ name: 'rowId', format: 'uuid' })
  update(
    @CallerOf() caller: Caller,
    @Param('tableId', ResourceIdPipe) tableId: string,
    @Param('rowId', ResourceIdPipe) rowId: string,
    @Body() body: RowBody,
  ) {
    return this.bus.send(TablesPatterns.updateRow, caller, { tableId, rowId, data: body.data });
  }

  @Delete(':rowId')
  @RequireScope('tables:write')
  @ApiOperation({ summary: 'Delete a row' })
  @ApiParam({ name: 'rowId', format: 'uuid' })
  remove(@CallerOf() caller: Caller, @Param('tableId', ResourceIdPipe) tableId: string, @Param('rowId', ResourceIdPipe) rowId: string) {
    return this.bus.send(TablesPatterns.removeRow, caller, { tableId, rowId });
  }
}
