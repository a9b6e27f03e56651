import { operation } from '../operation';
import { CreateUploadBody, UploadTicket } from './upload.dto';

/** Presigned uploads of attachment and import files (the tables service, queue group `tables`). */
export const UploadsOperations = {
  create: operation({
    tag: 'uploads',
    operationId: 'createUpload',
    summary: 'Start a file upload',
    description:
      "Answers a presigned URL: PUT the file's bytes there with the answered headers within 15 minutes, then put " +
      '`{upload_id}` in an attachment value of a row of this table.',
    method: 'POST',
    path: 'tables/:table_id/uploads',
    scope: 'tables:write',
    subject: 'tables.uploads.create',
    status: 201,
    body: CreateUploadBody,
    answers: UploadTicket,
  }),
};
