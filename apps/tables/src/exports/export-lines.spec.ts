import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { ExportLines } from './export-lines';

async function passed(chunks: string[], header: string, csv: boolean) {
  const progress = { rowsDone: 0 };
  const output = await text(Readable.from(chunks.map((chunk) => Buffer.from(chunk))).pipe(new ExportLines(header, csv, progress)));
  return { output, rows: progress.rowsDone };
}

describe('ExportLines', () => {
  it('writes the header first and counts CSV rows, not the newlines inside quoted values, across chunk edges', async () => {
    const chunks = ['a,"multi\nli', 'ne ""quoted"" value"\nb,', '"x"\n', 'c,plain\n'];
    expect(await passed(chunks, 'name,notes\n', true)).toEqual({ output: `name,notes\n${chunks.join('')}`, rows: 3 });
  });

  it('counts every NDJSON line, whatever quotes its strings escape', async () => {
    const chunks = ['{"a":"he said \\"hi\\""}\n{"a":', '"\\"\\"\\""}\n'];
    expect(await passed(chunks, '', false)).toEqual({ output: chunks.join(''), rows: 2 });
  });
});
