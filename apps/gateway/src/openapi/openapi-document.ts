import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { TABLES_EXTRA_MODELS, WEBHOOK_PAYLOADS } from '@contracts';
import { DocumentedRoutesModule } from './documented-routes';
import { asOpenApi31 } from './openapi-31';
import { completeDocument } from './openapi-completion';
import { webhooksSection } from './openapi-webhooks';

export const API_TITLE = 'Organization Data, Webhook, Domain and Availability API';
export const API_VERSION = '1.0.0';

const TAGS: [string, string][] = [
  ['tables', 'Custom tables and their typed fields'],
  ['rows', 'Rows of a table: create, read, update, delete; lists filtered, sorted and paged'],
  ['uploads', 'Presigned uploads of the files that attachment fields hold, and of files to import'],
  ['imports', 'Imports of CSV and NDJSON files into a table, run in the background'],
  ['exports', "Exports of a table's rows to CSV and NDJSON files, run in the background"],
  ['webhooks', 'Signed HTTP notifications of events, their deliveries and test sends'],
  ['domains', 'Email domains, their DNS verification and their email addresses'],
  ['calendar', 'The weekly availability'],
];

/**
 * The OpenAPI 3.1 document of the whole API, built from the declared operations and the contract
 * classes: paths relative to the server URL, which ends in /v1 as the interface's base URL does. It is
 * read from an application of its own in preview mode, which scans the documented routes and
 * instantiates nothing: no connection is made.
 */
export async function createOpenApiDocument(): Promise<OpenAPIObject> {
  const app = await NestFactory.create(DocumentedRoutesModule, new FastifyAdapter(), { preview: true, logger: false });
  const builder = new DocumentBuilder()
    .setTitle(API_TITLE)
    .setVersion(API_VERSION)
    .setDescription(
      'Custom tables and rows, signed webhooks, email domains and weekly availability for an organization. ' +
        'Every request carries `Authorization: Bearer <API key>`. Successful answers are wrapped in ' +
        '`{success: true, data, pagination?, message?}` (except the availability routes); failures are ' +
        '`{success: false, error: {code, message, details?}}`. The bodies webhook receivers get are the ' +
        'payloads of the `webhooks` section, one per event kind.',
    )
    .setOpenAPIVersion('3.1.0')
    .addServer('/v1', 'The gateway serving this document')
    .addServer('http://localhost:3000/v1', 'A gateway started with `npm start`');
  for (const [name, description] of TAGS) builder.addTag(name, description);
  const scanned = SwaggerModule.createDocument(app, builder.build(), {
    // Every operation names its own tag; the routes' controller is generated and not a part of the API.
    autoTagControllers: false,
    extraModels: [...WEBHOOK_PAYLOADS, ...TABLES_EXTRA_MODELS],
  });
  await app.close();
  return { ...asOpenApi31(completeDocument(scanned)), webhooks: webhooksSection() };
}
