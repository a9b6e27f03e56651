import { Injectable } from '@nestjs/common';
import { ExportsOperations as Ops, OperationInput } from '@contracts';
import { Handles, ServiceCaller } from '@platform/messaging';
import { ExportsService } from './exports.service';

/** Exports, queued here and run by tables-jobs (queue group `tables`). */
@Injectable()
export class ExportsHandlers {
  constructor(private readonly exports: ExportsService) {}

  @Handles(Ops.create)
  create(input: OperationInput<typeof Ops.create>, { org }: ServiceCaller) {
    return this.exports.create(org.id, input.tableId, input);
  }

  @Handles(Ops.get)
  get({ tableId, exportId }: OperationInput<typeof Ops.get>, { org }: ServiceCaller) {
    return this.exports.get(org.id, tableId, exportId);
  }
}
