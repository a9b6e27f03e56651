import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { completeDocument } from './openapi-completion';

export const API_TITLE = 'Organization Data, Webhook, Domain and Availability API';
export const API_VERSION = '1.0.0';

/** The OpenAPI 3 document of the whole /v1 surface, scanned from the gateway's controllers and DTOs. */
export function createOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle(API_TITLE)
    .setVersion(API_VERSION)
    .setDescription(
      'Custom tables and rows, signed webhooks, email domains and weekly availability for an organization. ' +
        'Every request carries `Authorization: Bearer <API key>`. Successful answers are wrapped in ' +
        '`{success: true, data, pagination?, message?}` (except the availability routes); failures are ' +
        '`{success: false, error: {code, message, details?}}`.',
    )
    .build();
  return completeDocument(SwaggerModule.createDocument(app, config));
}
