import type { FieldType } from '@contracts';
import { AppError } from '@platform/errors';
import { getCountries, type CountryCode } from 'libphonenumber-js/max';
import type { FieldOptions } from './field';

export const MAX_PRECISION = 10;
export const MAX_SELECT_VALUES = 500;
export const MAX_SELECT_VALUE_LENGTH = 200;
export const DEFAULT_CURRENCY = 'USD';
export const DEFAULT_CURRENCY_PRECISION = 2;

const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));
const COUNTRIES: ReadonlySet<string> = new Set(getCountries());

type Raw = Record<string, unknown>;

function onlyKeys(options: Raw, allowed: string[], path: string): void {
  for (const key of Object.keys(options)) {
    if (!allowed.includes(key)) {
      throw AppError.validation(`${path}.${key}`, allowed.length ? `is not an option of this field type` : 'this field type takes no options');
    }
  }
}

function precision(options: Raw, path: string, fallback?: number): number | undefined {
  const value = options.precision;
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_PRECISION) {
    throw AppError.validation(`${path}.precision`, `must be an integer from 0 to ${MAX_PRECISION}`);
  }
  return value;
}

function selectValues(options: Raw, path: string): string[] {
  const values = options.values;
  if (!Array.isArray(values) || values.length === 0) throw AppError.validation(`${path}.values`, 'must be a non-empty array of strings');
  if (values.length > MAX_SELECT_VALUES) throw AppError.validation(`${path}.values`, `must hold at most ${MAX_SELECT_VALUES} values`);
  const seen = new Set<string>();
  values.forEach((value, i) => {
    if (typeof value !== 'string' || value.length === 0 || value.length > MAX_SELECT_VALUE_LENGTH) {
      throw AppError.validation(`${path}.values[${i}]`, `must be a non-empty string of at most ${MAX_SELECT_VALUE_LENGTH} characters`);
    }
    if (seen.has(value)) throw AppError.validation(`${path}.values[${i}]`, 'is a duplicate');
    seen.add(value);
  });
  return values as string[];
}

/** `{is_unique: true}` when asked for; false is the default and is not stored. */
function uniqueness(options: Raw, path: string): FieldOptions {
  const value = options.is_unique;
  if (value === undefined || value === null || value === false) return {};
  if (value !== true) throw AppError.validation(`${path}.is_unique`, 'must be true or false');
  return { is_unique: true };
}

/**
 * `{searchable: true}` when asked for: the field's `contains` and `starts_with` filters are then served by a
 * trigram index instead of reading every row, at the price of that index's entries on every write. False
 * is the default and is not stored; the filters work either way.
 */
function searchability(options: Raw, path: string): FieldOptions {
  const value = options.searchable;
  if (value === undefined || value === null || value === false) return {};
  if (value !== true) throw AppError.validation(`${path}.searchable`, 'must be true or false');
  return { searchable: true };
}

/** Validates a field's options for its type (contract "Options") and fills in defaults. */
export function validateFieldOptions(fieldType: FieldType, raw: Raw | undefined, path: string): FieldOptions {
  const options = raw ?? {};
  switch (fieldType) {
    case 'number': {
      onlyKeys(options, ['precision', 'is_unique'], path);
      const value = precision(options, path);
      return { ...(value === undefined ? {} : { precision: value }), ...uniqueness(options, path) };
    }
    case 'currency': {
      onlyKeys(options, ['currency', 'precision'], path);
      const code = options.currency ?? DEFAULT_CURRENCY;
      if (typeof code !== 'string' || !/^[A-Z]{3}$/.test(code) || !CURRENCIES.has(code)) {
        throw AppError.validation(`${path}.currency`, 'must be an ISO 4217 currency code such as USD');
      }
      return { currency: code, precision: precision(options, path, DEFAULT_CURRENCY_PRECISION) };
    }
    case 'select':
      onlyKeys(options, ['values', 'searchable'], path);
      return { values: selectValues(options, path), ...searchability(options, path) };
    case 'multi_select':
      onlyKeys(options, ['values'], path);
      return { values: selectValues(options, path) };
    case 'phone': {
      onlyKeys(options, ['default_country', 'is_unique', 'searchable'], path);
      const country = options.default_country;
      const flags = { ...uniqueness(options, path), ...searchability(options, path) };
      if (country === undefined || country === null) return flags;
      if (typeof country !== 'string' || !COUNTRIES.has(country)) {
        throw AppError.validation(`${path}.default_country`, 'must be an ISO 3166 alpha-2 country code such as US');
      }
      return { default_country: country as CountryCode, ...flags };
    }
    case 'text':
    case 'email':
    case 'url':
      onlyKeys(options, ['is_unique', 'searchable'], path);
      return { ...uniqueness(options, path), ...searchability(options, path) };
    case 'long_text':
      onlyKeys(options, ['searchable'], path);
      return searchability(options, path);
    default:
      onlyKeys(options, [], path);
      return {};
  }
}
