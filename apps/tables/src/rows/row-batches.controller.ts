import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { CreateRowsParams, OrgContext, RemoveRowsParams, TablesPatterns, UpdateRowsParams } from '@contracts';
import { Org, Params } from '@platform/messaging';
import { RowBatchesService } from './row-batches.service';
import { RowUpsertsService } from './row-upserts.service';

/** Request-reply handlers for batches of rows (queue group `tables`). */
@Controller()
export class RowBatchesController {
  constructor(
    private readonly batches: RowBatchesService,
    private readonly upserts: RowUpsertsService,
  ) {}

  @MessagePattern(TablesPatterns.createRows)
  create(@Org() org: OrgContext, @Params() params: CreateRowsParams) {
    if (params.upsert_on !== undefined) return this.upserts.upsert(org.id, params.tableId, params.rows, params.upsert_on);
    return this.batches.create(org.id, params.tableId, params.rows);
  }

  @MessagePattern(TablesPatterns.updateRows)
  update(@Org() org: OrgContext, @Params() params: UpdateRowsParams) {
    return this.batches.update(org.id, params.tableId, params.rows);
  }

  @MessagePattern(TablesPatterns.removeRows)
  remove(@Org() org: OrgContext, @Params() params: RemoveRowsParams) {
    return this.batches.remove(org.id, params.tableId, params.ids);
  }
}
