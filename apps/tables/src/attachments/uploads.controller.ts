import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { CreateUploadParams, OrgContext, TablesPatterns } from '@contracts';
import { Org, Params } from '@platform/messaging';
import { UploadsService } from './uploads.service';

/** Request-reply handlers for uploads (queue group `tables`). */
@Controller()
export class UploadsController {
  constructor(private readonly uploads: UploadsService) {}

  @MessagePattern(TablesPatterns.createUpload)
  create(@Org() org: OrgContext, @Params() params: CreateUploadParams) {
    return this.uploads.create(org.id, params.tableId, params.body);
  }
}
