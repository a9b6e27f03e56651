import { IsInt, IsOptional, IsString, Min } from 'class-validator';
import { AppError } from './app-error';
import { validateInput } from './validate-input';

class Sample {
  @IsString()
  name!: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  page: number = 1;
}

function failure(value: unknown): AppError {
  try {
    validateInput(Sample, value);
  } catch (error) {
    return error as AppError;
  }
  throw new Error('expected a validation error');
}

describe('validateInput', () => {
  it('answers an instance of the contract class, keeping its defaults', () => {
    const sample = validateInput(Sample, { name: 'x' });
    expect(sample).toBeInstanceOf(Sample);
    expect(sample).toEqual({ name: 'x', page: 1 });
  });

  it.each([null, [], 'text', 12])('refuses %j as not a JSON object', (value) => {
    expect(failure(value).toBody()).toEqual({ code: 'VALIDATION_ERROR', message: expect.any(String), details: { field: 'body', reason: 'must be a JSON object' } });
  });

  it('names an unknown property and a bad value by their field', () => {
    expect(failure({ name: 'x', extra: 1 }).details).toEqual({ field: 'extra', reason: expect.stringContaining('should not exist') });
    expect(failure({ name: 'x', page: 0 }).details).toEqual({ field: 'page', reason: expect.any(String) });
  });
});
