import { type FormEvent, useState } from 'react';
import type { ShownError } from '../errors';
import { ErrorNote } from '../ui/feedback';
import type { FieldView } from './field-drafts';
import { type Condition, filterOf, OPERATOR_WORDS, operatorsFor } from './filter-grammar';

const TIMESTAMPS = ['created_at', 'updated_at'];

/**
 * Conditions on fields, joined by all or any, written out in the rows list's filter grammar (shown, so
 * that it can be copied into code); the JSON can also be edited by hand.
 */
export function FilterBuilder({ fields, error, onApply }: { fields: FieldView[]; error?: ShownError; onApply(filter: string | undefined): void }) {
  const [conditions, setConditions] = useState<Condition[]>([]);
  const [join, setJoin] = useState<'and' | 'or'>('and');
  const [text, setText] = useState('');
  const typeOf = (slug: string) => fields.find((field) => field.slug === slug)?.field_type ?? 'timestamp';
  const rewrite = (next: Condition[], nextJoin = join) => {
    setConditions(next);
    setJoin(nextJoin);
    const filter = filterOf(next, fields, nextJoin);
    setText(filter ? JSON.stringify(filter) : '');
  };
  const change = (index: number, patch: Partial<Condition>) =>
    rewrite(
      conditions.map((condition, i) => {
        if (i !== index) return condition;
        const next = { ...condition, ...patch };
        if (patch.slug !== undefined && !operatorsFor(typeOf(next.slug)).includes(next.op)) next.op = operatorsFor(typeOf(next.slug))[0];
        return next;
      }),
    );
  const apply = (event: FormEvent) => {
    event.preventDefault();
    onApply(text.trim() === '' ? undefined : text.trim());
  };
  return (
    <form className="filter" onSubmit={apply} aria-label="Filter rows">
      {conditions.map((condition, index) => (
        <div className="row-of-inputs" key={index}>
          <select aria-label={`Condition ${index + 1} field`} value={condition.slug} onChange={(event) => change(index, { slug: event.target.value })}>
            {fields.map((field) => (
              <option key={field.slug} value={field.slug}>
                {field.name}
              </option>
            ))}
            {TIMESTAMPS.map((slug) => (
              <option key={slug} value={slug}>
                {slug}
              </option>
            ))}
          </select>
          <select aria-label={`Condition ${index + 1} operator`} value={condition.op} onChange={(event) => change(index, { op: event.target.value })}>
            {operatorsFor(typeOf(condition.slug)).map((op) => (
              <option key={op} value={op}>
                {OPERATOR_WORDS[op]}
              </option>
            ))}
          </select>
          {condition.op === 'is_empty' ? (
            <select aria-label={`Condition ${index + 1} value`} value={condition.value || 'true'} onChange={(event) => change(index, { value: event.target.value })}>
              <option value="true">yes</option>
              <option value="false">no</option>
            </select>
          ) : (
            <input
              aria-label={`Condition ${index + 1} value`}
              placeholder={condition.op === 'in' || condition.op === 'nin' ? 'a, b, c' : typeOf(condition.slug) === 'checkbox' ? 'true or false' : 'value'}
              value={condition.value}
              onChange={(event) => change(index, { value: event.target.value })}
            />
          )}
          <button type="button" onClick={() => rewrite(conditions.filter((_, i) => i !== index))} aria-label={`Remove condition ${index + 1}`}>
            Remove
          </button>
        </div>
      ))}
      <div className="row-of-inputs">
        <button
          type="button"
          onClick={() => {
            const slug = fields[0]?.slug ?? 'created_at';
            rewrite([...conditions, { slug, op: operatorsFor(typeOf(slug))[0], value: '' }]);
          }}
        >
          Add a condition
        </button>
        {conditions.length > 1 ? (
          <label>
            Match
            <select value={join} onChange={(event) => rewrite(conditions, event.target.value as 'and' | 'or')}>
              <option value="and">all conditions</option>
              <option value="or">any condition</option>
            </select>
          </label>
        ) : null}
      </div>
      <label className="wide">
        Filter (JSON, the rows list grammar)
        <textarea rows={2} value={text} onChange={(event) => setText(event.target.value)} spellCheck={false} className="mono" />
      </label>
      <div className="actions">
        <button type="submit">Apply filter</button>
        <button
          type="button"
          onClick={() => {
            rewrite([]);
            onApply(undefined);
          }}
        >
          Clear
        </button>
        {error ? <ErrorNote error={error} /> : null}
      </div>
    </form>
  );
}
