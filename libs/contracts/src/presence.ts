import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';

/** Whether a body must carry a property: a create names what it makes, an update only what it changes. */
export type Presence = 'required' | 'optional';

/** A property's OpenAPI description, as a required or an optional property. */
export const documented = (presence: Presence, doc: ApiPropertyOptions = {}): PropertyDecorator =>
  presence === 'required' ? ApiProperty(doc) : ApiPropertyOptional(doc);
