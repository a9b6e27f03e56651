import { Injectable } from '@nestjs/common';
import { OperationInput, RowsOperations as Ops } from '@contracts';
import { Handles, ServiceCaller } from '@platform/messaging';
import { RowBatchesService } from './row-batches.service';
import { RowUpsertsService } from './row-upserts.service';

/** Batches of rows, all or nothing (queue group `tables`). */
@Injectable()
export class RowBatchesHandlers {
  constructor(
    private readonly batches: RowBatchesService,
    private readonly upserts: RowUpsertsService,
  ) {}

  @Handles(Ops.createBatch)
  create({ tableId, rows, upsert_on }: OperationInput<typeof Ops.createBatch>, { org }: ServiceCaller) {
    if (upsert_on !== undefined) return this.upserts.upsert(org.id, tableId, rows, upsert_on);
    return this.batches.create(org.id, tableId, rows);
  }

  @Handles(Ops.updateBatch)
  update({ tableId, rows }: OperationInput<typeof Ops.updateBatch>, { org }: ServiceCaller) {
    return this.batches.update(org.id, tableId, rows);
  }

  @Handles(Ops.removeBatch)
  remove({ tableId, ids }: OperationInput<typeof Ops.removeBatch>, { org }: ServiceCaller) {
    return this.batches.remove(org.id, tableId, ids);
  }
}
