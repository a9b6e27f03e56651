import { Injectable } from '@nestjs/common';
import { OperationInput, UploadsOperations as Ops } from '@contracts';
import { Handles, ServiceCaller } from '@platform/messaging';
import { UploadsService } from './uploads.service';

/** Upload tickets (queue group `tables`). */
@Injectable()
export class UploadsHandlers {
  constructor(private readonly uploads: UploadsService) {}

  @Handles(Ops.create)
  create(input: OperationInput<typeof Ops.create>, { org }: ServiceCaller) {
    return this.uploads.create(org.id, input.tableId, input);
  }
}
