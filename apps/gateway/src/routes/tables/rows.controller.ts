import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { FastifyReply } from 'fastify';
import { BatchCreateRowsBody, BatchDeleteRowsBody, BatchUpdateRowsBody, ROW_ACTIONS, RowBody, RowListQuery, RowView, TablesPatterns } from '@contracts';
import { CallerOf, RequireScope } from '../../auth/require-scope';
import { Caller, ServiceBus } from '../../bus/service-bus';
import { ResourceIdPipe } from '../../http/resource-id.pipe';
import { ApiData, ApiDataList } from '../../openapi/api-data.decorator';
import { envelopeOf } from '../../openapi/openapi-schemas';

/** An upsert batch's answer: the rows, and in the same order what was done to each. */
const UPSERTED = envelopeOf({ data: { type: 'array', items: { $ref: getSchemaPath(RowView) } } });
const UPSERT_ACTIONS: SchemaObject = { type: 'array', items: { type: 'string', enum: [...ROW_ACTIONS] } };

@ApiTags('rows')
@ApiBearerAuth()
@ApiParam({ name: 'table_id', format: 'uuid' })
@Controller('tables/:table_id/rows')
export class RowsController {
  constructor(private readonly bus: ServiceBus) {}

  @Get()
  @RequireScope('tables:read')
  @ApiOperation({ operationId: 'listRows', summary: 'List rows, filtered and sorted' })
  @ApiData(RowView)
  list(@CallerOf() caller: Caller, @Param('table_id', ResourceIdPipe) tableId: string, @Query() query: RowListQuery) {
    const { page, limit, sort, order, filter, cursor } = query;
    return this.bus.send(TablesPatterns.listRows, caller, { tableId, page, limit, sort, order, filter, cursor });
  }

  // Static segments win over `:row_id` in the router, so `batch` never reaches the single-row routes.
  @Post('batch')
  @HttpCode(201)
  @RequireScope('tables:write')
  @ApiOperation({
    operationId: 'createRows',
    summary: 'Create up to 100 rows, all or nothing; with upsert_on, create or update each by a unique field',
    description: 'Answers 201 with the created rows; with `upsert_on`, 200 with the rows and what was done to each (`actions`, in the same order).',
  })
  @ApiDataList(RowView, 201)
  @ApiResponse({
    status: 200,
    description: 'upsert_on was given',
    schema: { ...UPSERTED, required: [...(UPSERTED.required ?? []), 'actions'], properties: { ...UPSERTED.properties, actions: UPSERT_ACTIONS } },
  })
  async createBatch(
    @CallerOf() caller: Caller,
    @Param('table_id', ResourceIdPipe) tableId: string,
    @Body() body: BatchCreateRowsBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const result = await this.bus.send(TablesPatterns.createRows, caller, { tableId, rows: body.rows.map(({ data }) => ({ data })), upsert_on: body.upsert_on });
    if (body.upsert_on !== undefined) reply.status(200);
    return result;
  }

  @Patch('batch')
  @RequireScope('tables:write')
  @ApiOperation({ operationId: 'updateRows', summary: 'Merge values into up to 100 rows, all or nothing' })
  @ApiDataList(RowView)
  updateBatch(@CallerOf() caller: Caller, @Param('table_id', ResourceIdPipe) tableId: string, @Body() body: BatchUpdateRowsBody) {
    return this.bus.send(TablesPatterns.updateRows, caller, { tableId, rows: body.rows.map(({ id, data }) => ({ id, data })) });
  }

  @Post('batch-delete')
  @HttpCode(200)
  @ApiResponse({ status: 200, schema: envelopeOf({ message: true }) })
  @RequireScope('tables:write')
  @ApiOperation({ operationId: 'deleteRows', summary: 'Delete up to 100 rows, all or nothing' })
  removeBatch(@CallerOf() caller: Caller, @Param('table_id', ResourceIdPipe) tableId: string, @Body() body: BatchDeleteRowsBody) {
    return this.bus.send(TablesPatterns.removeRows, caller, { tableId, ids: body.ids });
  }

  @Get(':row_id')
  @RequireScope('tables:read')
  @ApiOperation({ operationId: 'getRow', summary: 'One row' })
  @ApiData(RowView)
  @ApiParam({ name: 'row_id', format: 'uuid' })
  get(@CallerOf() caller: Caller, @Param('table_id', ResourceIdPipe) tableId: string, @Param('row_id', ResourceIdPipe) rowId: string) {
    return this.bus.send(TablesPatterns.getRow, caller, { tableId, rowId });
  }

  @Post()
  @HttpCode(201)
  @RequireScope('tables:write')
  @ApiOperation({ operationId: 'createRow', summary: 'Create a row' })
  @ApiData(RowView, 201)
  create(@CallerOf() caller: Caller, @Param('table_id', ResourceIdPipe) tableId: string, @Body() body: RowBody) {
    return this.bus.send(TablesPatterns.createRow, caller, { tableId, data: body.data });
  }

  @Patch(':row_id')
  @RequireScope('tables:write')
  @ApiOperation({ operationId: 'updateRow', summary: 'Merge values into a row' })
  @ApiData(RowView)
  @ApiParam({ name: 'row_id', format: 'uuid' })
  update(
    @CallerOf() caller: Caller,
    @Param('table_id', ResourceIdPipe) tableId: string,
    @Param('row_id', ResourceIdPipe) rowId: string,
    @Body() body: RowBody,
  ) {
    return this.bus.send(TablesPatterns.updateRow, caller, { tableId, rowId, data: body.data });
  }

  @Delete(':row_id')
  @RequireScope('tables:write')
  @ApiOperation({ operationId: 'deleteRow', summary: 'Delete a row' })
  @ApiParam({ name: 'row_id', format: 'uuid' })
  remove(@CallerOf() caller: Caller, @Param('table_id', ResourceIdPipe) tableId: string, @Param('row_id', ResourceIdPipe) rowId: string) {
    return this.bus.send(TablesPatterns.removeRow, caller, { tableId, rowId });
  }
}
