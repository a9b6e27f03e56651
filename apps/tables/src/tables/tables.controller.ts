import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { CreateTableParams, ExistingTableIdsParams, OrgContext, PageQuery, TableIdParams, TablesPatterns, UpdateTableParams } from '@contracts';
import { Org, Params } from '@platform/messaging';
import { TablesService } from './tables.service';

/** Request-reply handlers for tables and their fields (queue group `tables`). */
@Controller()
export class TablesController {
  constructor(private readonly tables: TablesService) {}

  @MessagePattern(TablesPatterns.list)
  list(@Org() org: OrgContext, @Params() params: PageQuery) {
    return this.tables.list(org.id, params.page, params.limit);
  }

  @MessagePattern(TablesPatterns.get)
  get(@Org() org: OrgContext, @Params() params: TableIdParams) {
    return this.tables.get(org.id, params.tableId);
  }

  @MessagePattern(TablesPatterns.create)
  create(@Org() org: OrgContext, @Params() params: CreateTableParams) {
    return this.tables.create(org.id, params.body);
  }

  @MessagePattern(TablesPatterns.update)
  update(@Org() org: OrgContext, @Params() params: UpdateTableParams) {
    return this.tables.update(org.id, params.tableId, params.body);
  }

  /** For other contexts (webhooks narrowed to tables): which of these ids name tables of the organization. */
  @MessagePattern(TablesPatterns.existingIds)
  existingIds(@Org() org: OrgContext, @Params() params: ExistingTableIdsParams) {
    return this.tables.existingIds(org.id, params.tableIds);
  }

  @MessagePattern(TablesPatterns.remove)
  remove(@Org() org: OrgContext, @Params() params: TableIdParams) {
    return this.tables.remove(org.id, params.tableId);
  }
}
