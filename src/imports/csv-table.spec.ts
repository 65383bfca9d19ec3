import { CsvTableError, decodeCsvText, detectDelimiter, readCsvTable } from './csv-table';

describe('csv table', () => {
  it('reads a header and rows with their file lines, trimmed, quotes honoured', () => {
    const table = readCsvTable('sku,name\n A1 ,"Jacket, black"\n\nB2,"Two\nlines"\n , \nC3\n', 10);
    expect(table.columns).toEqual(['sku', 'name']);
    expect(table.rows).toEqual([
      { line: 2, values: ['A1', 'Jacket, black'] },
      { line: 4, values: ['B2', 'Two\nlines'] },
      { line: 7, values: ['C3', ''] },
    ]);
  });

  it('detects semicolon, tab and pipe delimiters from the header', () => {
    expect(detectDelimiter('a;b;c\n1,5;2;3')).toBe(';');
    expect(detectDelimiter('a\tb\n')).toBe('\t');
    expect(detectDelimiter('a|b\n')).toBe('|');
    expect(detectDelimiter('single\n')).toBe(',');
    expect(readCsvTable('\uFEFFsku;price\nA;1,50\n', 5).rows[0].values).toEqual(['A', '1,50']);
  });

  it('refuses empty files, duplicate headers, long rows and too many rows', () => {
    const error = (text: string, max = 5) => {
      try {
        readCsvTable(text, max);
      } catch (e) {
        expect(e).toBeInstanceOf(CsvTableError);
        return { message: (e as Error).message, line: (e as CsvTableError).line };
      }
      throw new Error('expected an error');
    };
    expect(error('').message).toMatch(/empty/);
    expect(error(',,\n , \n').message).toMatch(/empty/);
    expect(error('sku,SKU\n1,2')).toEqual({ message: 'The column "SKU" appears twice.', line: 1 });
    expect(error('a,b\n1,2\n1,2,3')).toEqual({
      message: 'Line 3 has 3 cells, the header 2.',
      line: 3,
    });
    expect(error('a\n1\n2\n3', 2).message).toBe('The file has more than 2 rows.');
    expect(error('a,b\n"unclosed,2\n').message).toMatch(/^The file is not valid CSV/);
  });

  it('accepts UTF-8 only', () => {
    expect(decodeCsvText(Buffer.from('\uFEFFsku\nÄ1\n'))).toBe('sku\nÄ1\n');
    expect(() => decodeCsvText(Buffer.from([0x73, 0xff, 0xfe, 0x00]))).toThrow(
      'The file is not UTF-8 text.',
    );
  });
});
