import { RowEventData, WebhookOperationalEventData } from './events';
import { jsonSchemaOf, toJsonSchema } from './json-schema';
import { TABLES_EXTRA_MODELS } from './tables/table.views';

describe('JSON Schema from the contract classes', () => {
  it('writes a nullable field with null among its types, and a nullable enum with null among its values', () => {
    expect(jsonSchemaOf(WebhookOperationalEventData)).toMatchObject({ type: 'object', properties: { last_error: { type: ['string', 'null'] } } });
    expect(toJsonSchema({ type: 'string', enum: ['a'], nullable: true } as never)).toEqual({ type: ['string', 'null'], enum: ['a', null] });
  });

  it('writes a nullable reference as the reference or null, keeping its description outside', () => {
    expect(toJsonSchema({ type: 'object', nullable: true, description: 'why', allOf: [{ $ref: '#/components/schemas/X' }] } as never)).toEqual({
      description: 'why',
      anyOf: [{ allOf: [{ $ref: '#/components/schemas/X' }] }, { type: 'null' }],
    });
  });

  it('puts every class a schema refers to under $defs, the models its raw schemas name included', () => {
    const schema = jsonSchemaOf(RowEventData, TABLES_EXTRA_MODELS) as { $defs: Record<string, unknown>; required: string[] };
    expect(Object.keys(schema.$defs).sort()).toEqual(['AttachmentFile', 'AttachmentLink']);
    expect(JSON.stringify(schema)).not.toMatch(/#\/components\//);
    expect(schema.required).toEqual(expect.arrayContaining(['table_id', 'table_name', 'row_id', 'row_data']));
  });
});
