import { draftNamed, draftOf, type FieldView, fieldChanges, fieldsToCreate, newDraft, optionsFor } from './field-drafts';

const stored: FieldView[] = [
  { id: 'f1', name: 'Email', slug: 'email', field_type: 'email', is_required: true, options: { is_unique: true } },
  { id: 'f2', name: 'Stage', slug: 'stage', field_type: 'select', is_required: false, options: { values: ['new', 'won'] } },
  { id: 'f3', name: 'Notes', slug: 'notes', field_type: 'long_text', is_required: false, options: {} },
];

describe('the field editor', () => {
  it('sends only the options a type takes, and only those set', () => {
    expect(optionsFor('text', { precision: 2, is_unique: true, searchable: true })).toEqual({ is_unique: true, searchable: true });
    expect(optionsFor('currency', { precision: 0, currency: 'EUR', values: ['x'] })).toEqual({ precision: 0, currency: 'EUR' });
    expect(optionsFor('select', { values: ['a', '', 'b'] })).toEqual({ values: ['a', 'b'] });
    expect(optionsFor('checkbox', { is_unique: true })).toBeUndefined();
  });

  it('creates a table with every field not removed', () => {
    const title = { ...newDraft(), name: 'Title', is_required: true };
    const gone = { ...newDraft(), name: 'Gone', removed: true };
    expect(fieldsToCreate([title, gone])).toEqual([{ name: 'Title', field_type: 'text', is_required: true }]);
  });

  it('changes only what differs, adds new fields after the changed ones, and removes by id', () => {
    const drafts = stored.map(draftOf);
    drafts[0] = { ...drafts[0], name: 'E-mail' };
    drafts[2] = { ...drafts[2], removed: true };
    const added = { ...newDraft(), name: 'Tier', field_type: 'select' as const, options: { values: ['gold'] } };
    const change = fieldChanges(stored, [...drafts, added]);
    expect(change.fields).toEqual([{ id: 'f1', name: 'E-mail' }, { name: 'Tier', field_type: 'select', is_required: false, options: { values: ['gold'] } }]);
    expect(change.remove_fields).toEqual(['f3']);
    // An error naming fields[1] belongs to the new field.
    expect(draftNamed('fields[1].options.values', change.keys)).toBe(added.key);
    expect(draftNamed('name', change.keys)).toBeUndefined();
  });

  it('sends options whole when one of them changed, and nothing for an untouched table', () => {
    const drafts = stored.map(draftOf);
    drafts[1] = { ...drafts[1], options: { values: ['new', 'won', 'lost'] } };
    expect(fieldChanges(stored, drafts).fields).toEqual([{ id: 'f2', options: { values: ['new', 'won', 'lost'] } }]);
    expect(fieldChanges(stored, stored.map(draftOf))).toEqual({ fields: [], remove_fields: [], keys: [] });
  });
});
