import { Injectable } from '@nestjs/common';
import { ImportsOperations as Ops, OperationInput } from '@contracts';
import { Handles, ServiceCaller } from '@platform/messaging';
import { ImportsService } from './imports.service';

/** Imports, queued here and run by tables-jobs (queue group `tables`). */
@Injectable()
export class ImportsHandlers {
  constructor(private readonly imports: ImportsService) {}

  @Handles(Ops.create)
  create(input: OperationInput<typeof Ops.create>, { org }: ServiceCaller) {
    return this.imports.create(org.id, input.tableId, input);
  }

  @Handles(Ops.get)
  get({ tableId, importId }: OperationInput<typeof Ops.get>, { org }: ServiceCaller) {
    return this.imports.get(org.id, tableId, importId);
  }

  @Handles(Ops.list)
  list({ tableId, page, limit }: OperationInput<typeof Ops.list>, { org }: ServiceCaller) {
    return this.imports.list(org.id, tableId, page, limit);
  }
}
