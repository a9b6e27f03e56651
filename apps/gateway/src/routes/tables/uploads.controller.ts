import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AttachmentFile, AttachmentLink, AttachmentUploadRef, CreateUploadBody, TablesPatterns, UploadTicket } from '@contracts';
import { CallerOf, RequireScope } from '../../auth/require-scope';
import { Caller, ServiceBus } from '../../bus/service-bus';
import { ResourceIdPipe } from '../../http/resource-id.pipe';
import { ApiData } from '../../openapi/api-data.decorator';

@ApiTags('uploads')
@ApiBearerAuth()
// The entries of attachment values, which row bodies and answers carry keyed by field slug.
@ApiExtraModels(AttachmentUploadRef, AttachmentFile, AttachmentLink)
@ApiParam({ name: 'table_id', format: 'uuid' })
@Controller('tables/:table_id/uploads')
export class UploadsController {
  constructor(private readonly bus: ServiceBus) {}

  @Post()
  @HttpCode(201)
  @RequireScope('tables:write')
  @ApiOperation({
    operationId: 'createUpload',
    summary: 'Start a file upload',
    description:
      'Answers a presigned URL: PUT the file\'s bytes there with the answered headers within 15 minutes, then put ' +
      '`{upload_id}` in an attachment value of a row of this table.',
  })
  @ApiData(UploadTicket, 201)
  create(@CallerOf() caller: Caller, @Param('table_id', ResourceIdPipe) tableId: string, @Body() body: CreateUploadBody) {
    return this.bus.send(TablesPatterns.createUpload, caller, { tableId, body });
  }
}
