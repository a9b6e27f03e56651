import type { ServiceResult } from '@contracts';
import { AppError, ErrorCode } from '@platform/errors';
import { replyPacketText, resultJsonOf } from './reply-packet';

const ID = '0b0e7f7e-6a34-4b8f-9d3c-2f4f8f1f5a10';

describe('reply packets', () => {
  it('is Nest’s packet shape, whatever the id', () => {
    const response = { ok: true as const, data: { id: 1 } };
    expect(JSON.parse(replyPacketText(ID, response))).toEqual({ id: ID, isDisposed: true, response });
    expect(JSON.parse(replyPacketText(undefined, response))).toEqual({ id: null, isDisposed: true, response });
  });

  it.each<[string, ServiceResult]>([
    ['a list with its pagination', { data: [{ id: 'r1', data: { 'a"b': 'x}}' } }], pagination: { page: 1, limit: 50, total: 1, next_cursor: null } }],
    ['a message alone', { message: '2 rows deleted' }],
    ['no field at all', {}],
  ])('gives back the result of a success as the JSON the service wrote: %s', (_case, result) => {
    for (const id of [ID, undefined]) {
      const json = resultJsonOf(replyPacketText(id, { ok: true, ...result }), 'tables.rows.list');
      expect(json).toBe(JSON.stringify(result));
    }
  });

  it('reads a success another writer laid out differently', () => {
    const packet = JSON.stringify({ response: { ok: true, data: [1, 2] }, id: ID, isDisposed: true });
    expect(JSON.parse(resultJsonOf(packet, 'p'))).toEqual({ data: [1, 2] });
  });

  it('throws a failure reply as its AppError, and anything else as a malformed reply', () => {
    const failure = replyPacketText(ID, { ok: false, error: AppError.notFound('Table').toBody() });
    let thrown: unknown;
    try {
      resultJsonOf(failure, 'p');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect(thrown).toMatchObject({ code: ErrorCode.NotFound });
    expect(() => resultJsonOf('{"id":null}', 'tables.rows.get')).toThrow('malformed reply to tables.rows.get');
    expect(() => resultJsonOf('not json', 'p')).toThrow('malformed reply to p');
  });
});
