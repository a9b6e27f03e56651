import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CreateImportBody, ImportProblem, ImportView, PageQuery, TablesPatterns } from '@contracts';
import { CallerOf, RequireScope } from '../../auth/require-scope';
import { Caller, ServiceBus } from '../../bus/service-bus';
import { ResourceIdPipe } from '../../http/resource-id.pipe';
import { ApiData } from '../../openapi/api-data.decorator';

@ApiTags('imports')
@ApiBearerAuth()
@ApiExtraModels(ImportProblem)
@ApiParam({ name: 'table_id', format: 'uuid' })
@Controller('tables/:table_id/imports')
export class ImportsController {
  constructor(private readonly bus: ServiceBus) {}

  @Post()
  @HttpCode(202)
  @RequireScope('tables:write')
  @ApiOperation({
    operationId: 'createImport',
    summary: 'Import a CSV or NDJSON file into the table, in the background',
    description:
      'The file is an upload of this table made with purpose "import". Answers 202 with the queued import; read it again ' +
      'to follow `rows_done` and see how it ended. At most one import of a table is queued or running at a time.',
  })
  @ApiData(ImportView, 202)
  create(@CallerOf() caller: Caller, @Param('table_id', ResourceIdPipe) tableId: string, @Body() body: CreateImportBody) {
    return this.bus.send(TablesPatterns.createImport, caller, { tableId, body });
  }

  @Get()
  @RequireScope('tables:read')
  @ApiOperation({ operationId: 'listImports', summary: "The table's imports, newest first" })
  @ApiData(ImportView)
  list(@CallerOf() caller: Caller, @Param('table_id', ResourceIdPipe) tableId: string, @Query() query: PageQuery) {
    return this.bus.send(TablesPatterns.listImports, caller, { tableId, page: query.page, limit: query.limit });
  }

  @Get(':import_id')
  @RequireScope('tables:read')
  @ApiOperation({ operationId: 'getImport', summary: 'One import, with its progress and problems' })
  @ApiData(ImportView)
  @ApiParam({ name: 'import_id', format: 'uuid' })
  get(@CallerOf() caller: Caller, @Param('table_id', ResourceIdPipe) tableId: string, @Param('import_id', ResourceIdPipe) importId: string) {
    return this.bus.send(TablesPatterns.getImport, caller, { tableId, importId });
  }
}
