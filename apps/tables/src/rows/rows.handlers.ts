import { Injectable } from '@nestjs/common';
import { OperationInput, RowsOperations as Ops } from '@contracts';
import { Handles, ServiceCaller } from '@platform/messaging';
import { RowsService } from './rows.service';

/** Single rows (queue group `tables`). */
@Injectable()
export class RowsHandlers {
  constructor(private readonly rows: RowsService) {}

  @Handles(Ops.list)
  list(input: OperationInput<typeof Ops.list>, { org }: ServiceCaller) {
    return this.rows.list(org.id, input.tableId, input);
  }

  @Handles(Ops.get)
  get({ tableId, rowId }: OperationInput<typeof Ops.get>, { org }: ServiceCaller) {
    return this.rows.get(org.id, tableId, rowId);
  }

  @Handles(Ops.create)
  create({ tableId, data }: OperationInput<typeof Ops.create>, { org, callId }: ServiceCaller) {
    return this.rows.create(org.id, tableId, data, callId);
  }

  @Handles(Ops.update)
  update({ tableId, rowId, data }: OperationInput<typeof Ops.update>, { org }: ServiceCaller) {
    return this.rows.update(org.id, tableId, rowId, data);
  }

  @Handles(Ops.remove)
  remove({ tableId, rowId }: OperationInput<typeof Ops.remove>, { org }: ServiceCaller) {
    return this.rows.remove(org.id, tableId, rowId);
  }
}
