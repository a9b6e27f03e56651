import { Injectable } from '@nestjs/common';
import { OperationInput, TablesMessages, TablesOperations as Ops } from '@contracts';
import { Handles, ServiceCaller } from '@platform/messaging';
import { TablesService } from './tables.service';

/** Tables and their fields (queue group `tables`), and what other contexts ask about them. */
@Injectable()
export class TablesHandlers {
  constructor(private readonly tables: TablesService) {}

  @Handles(Ops.list)
  list({ page, limit }: OperationInput<typeof Ops.list>, { org }: ServiceCaller) {
    return this.tables.list(org.id, page, limit);
  }

  @Handles(Ops.get)
  get({ tableId }: OperationInput<typeof Ops.get>, { org }: ServiceCaller) {
    return this.tables.get(org.id, tableId);
  }

  @Handles(Ops.create)
  create(input: OperationInput<typeof Ops.create>, { org }: ServiceCaller) {
    return this.tables.create(org.id, input);
  }

  @Handles(Ops.update)
  update(input: OperationInput<typeof Ops.update>, { org }: ServiceCaller) {
    return this.tables.update(org.id, input.tableId, input);
  }

  @Handles(Ops.remove)
  remove({ tableId }: OperationInput<typeof Ops.remove>, { org }: ServiceCaller) {
    return this.tables.remove(org.id, tableId);
  }

  @Handles(TablesMessages.existingIds)
  existingIds({ tableIds }: OperationInput<typeof TablesMessages.existingIds>, { org }: ServiceCaller) {
    return this.tables.existingIds(org.id, tableIds);
  }
}
