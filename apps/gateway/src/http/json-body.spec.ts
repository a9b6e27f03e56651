import { AppError } from '@platform/errors';
import { isJsonContentType, parseJsonBody } from './fastify-server';

function refusal(contentType: string | undefined, body: string | Buffer) {
  try {
    parseJsonBody(contentType, Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8'));
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).toBody();
  }
  throw new Error('expected a refusal');
}

describe('JSON bodies', () => {
  it.each(['application/json', 'Application/JSON', 'application/json; charset=utf-8', 'application/json;charset=UTF-8', 'application/json; charset="utf-8"'])(
    'takes %s',
    (contentType) => {
      expect(isJsonContentType(contentType)).toBe(true);
      expect(parseJsonBody(contentType, Buffer.from('{"name":"x"}'))).toEqual({ name: 'x' });
    },
  );

  it.each([undefined, '', 'text/plain', 'application/json; charset=latin1', 'application/json; charset=utf-16', 'application/jsonx', 'application/json; boundary=x', 'application/x-www-form-urlencoded'])(
    'refuses Content-Type %j as a BAD_REQUEST',
    (contentType) => {
      expect(refusal(contentType, '{"name":"x"}')).toEqual({ code: 'BAD_REQUEST', message: expect.stringContaining('Content-Type') });
    },
  );

  it.each([[[0xff]], [[0xc3, 0x28]], [[0xed, 0xa0, 0x80]], [[0xc0, 0xaf]]])('refuses bytes %j that are not UTF-8 instead of replacing them', (bytes) => {
    const body = Buffer.concat([Buffer.from('{"name":"'), Buffer.from(bytes), Buffer.from('"}')]);
    expect(refusal('application/json', body)).toEqual({ code: 'BAD_REQUEST', message: expect.stringContaining('UTF-8') });
  });

  it('names the path of a NUL, a lone surrogate or an infinite number', () => {
    expect(refusal('application/json', '{"data":{"title":"a\\u0000"}}').details).toEqual({ field: 'data.title', reason: expect.stringContaining('NUL') });
    expect(refusal('application/json', '{"name":"\\ud800"}').details).toEqual({ field: 'name', reason: expect.stringContaining('surrogate') });
    expect(refusal('application/json', '{"rows":[{"data":{}},{"data":{"amount":1e999}}]}').details).toEqual({ field: 'rows[1].data.amount', reason: expect.stringContaining('finite') });
  });

  it('keeps escaped surrogate pairs and reads an empty body as none', () => {
    expect(parseJsonBody('application/json', Buffer.from('{"e":"\\ud83d\\ude00"}'))).toEqual({ e: '😀' });
    expect(parseJsonBody('application/json', Buffer.from('  '))).toBeUndefined();
  });

  it('refuses malformed and too deeply nested JSON as a BAD_REQUEST', () => {
    expect(refusal('application/json', '{"a":')).toEqual({ code: 'BAD_REQUEST', message: expect.stringContaining('not valid JSON') });
    expect(refusal('application/json', '['.repeat(40) + ']'.repeat(40))).toEqual({ code: 'BAD_REQUEST', message: expect.stringContaining('nested') });
  });

  it('refuses prototype keys as unknown properties, named by their path at any depth', () => {
    const cases: Array<[string, string]> = [
      ['{"__proto__":{"admin":true}}', '__proto__'],
      ['{"data":{"title":"x","__proto__":{"x":1}}}', 'data.__proto__'],
      ['{"constructor":{"prototype":{"x":1}}}', 'constructor'],
      ['{"rows":[{"data":{}},{"data":{"constructor":{"prototype":1}}}]}', 'rows[1].data.constructor'],
    ];
    for (const [body, field] of cases) {
      expect(refusal('application/json', body)).toEqual({ code: 'VALIDATION_ERROR', message: expect.any(String), details: { field, reason: 'is not a known property' } });
    }
    // A constructor key that is not an object with a prototype is data like any other.
    expect(parseJsonBody('application/json', Buffer.from('{"data":{"constructor":"x"}}'))).toEqual({ data: { constructor: 'x' } });
  });

  it('refuses a number a double would round, naming its path, and takes long ones a double holds', () => {
    expect(refusal('application/json', '{"data":{"title":"123456789012345678901234567890","amount":123456789012345678901234567890}}').details).toEqual({
      field: 'data.amount',
      reason: expect.stringContaining('123456789012345678901234567890'),
    });
    expect(refusal('application/json', '{"rows":[{"data":{"n":1}},{"data":{"n":9007199254740993}}]}').details).toEqual({ field: 'rows[1].data.n', reason: expect.stringContaining('significant digits') });
    expect(refusal('application/json', '{"n":0.12345678901234567890}').details).toEqual({ field: 'n', reason: expect.any(String) });
    // Under the smallest double it would be stored as 0.
    expect(refusal('application/json', '{"n":123456789012345678901234567890e-10000}').details).toEqual({ field: 'n', reason: expect.any(String) });
    expect(refusal('application/json', '{"a":[1,2,{"n":1e-400}]}').details).toEqual({ field: 'a[2].n', reason: expect.stringContaining('1e-400') });
    for (const exact of ['0.30000000000000004', '9007199254740992', '1.0000000000000000', '-12345678901234.5', '1e308', '1.5e-10', '1e-300', '5e-324']) {
      const text = `{"n":${exact},"s":"12345678901234567890"}`;
      expect(parseJsonBody('application/json', Buffer.from(text))).toEqual({ n: JSON.parse(exact), s: '12345678901234567890' });
    }
  });
});
