import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { CreateRowParams, ListRowsParams, OrgContext, RowIdParams, TablesPatterns, UpdateRowParams } from '@contracts';
import { Org, Params } from '@platform/messaging';
import { RowsService } from './rows.service';

/** Request-reply handlers for rows (queue group `tables`). */
@Controller()
export class RowsController {
  constructor(private readonly rows: RowsService) {}

  @MessagePattern(TablesPatterns.listRows)
  list(@Org() org: OrgContext, @Params() params: ListRowsParams) {
    return this.rows.list(org.id, params.tableId, params);
  }

  @MessagePattern(TablesPatterns.getRow)
  get(@Org() org: OrgContext, @Params() params: RowIdParams) {
    return this.rows.get(org.id, params.tableId, params.rowId);
  }

  @MessagePattern(TablesPatterns.createRow)
  create(@Org() org: OrgContext, @Params() params: CreateRowParams) {
    return this.rows.create(org.id, params.tableId, params.data);
  }

  @MessagePattern(TablesPatterns.updateRow)
  update(@Org() org: OrgContext, @Params() params: UpdateRowParams) {
    return this.rows.update(org.id, params.tableId, params.rowId, params.data);
  }

  @MessagePattern(TablesPatterns.removeRow)
  remove(@Org() org: OrgContext, @Params() params: RowIdParams) {
    return this.rows.remove(org.id, params.tableId, params.rowId);
  }
}
