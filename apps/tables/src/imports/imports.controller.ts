import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { CreateImportParams, ImportIdParams, ListImportsParams, OrgContext, TablesPatterns } from '@contracts';
import { Org, Params } from '@platform/messaging';
import { ImportsService } from './imports.service';

/** Request-reply handlers for imports (queue group `tables`). */
@Controller()
export class ImportsController {
  constructor(private readonly imports: ImportsService) {}

  @MessagePattern(TablesPatterns.createImport)
  create(@Org() org: OrgContext, @Params() params: CreateImportParams) {
    return this.imports.create(org.id, params.tableId, params.body);
  }

  @MessagePattern(TablesPatterns.getImport)
  get(@Org() org: OrgContext, @Params() params: ImportIdParams) {
    return this.imports.get(org.id, params.tableId, params.importId);
  }

  @MessagePattern(TablesPatterns.listImports)
  list(@Org() org: OrgContext, @Params() params: ListImportsParams) {
    return this.imports.list(org.id, params.tableId, params.page, params.limit);
  }
}
