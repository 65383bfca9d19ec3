import type { ResourceMeta } from '../core/resource-meta';
import { csvDocument, csvField, flatten, plannedColumns } from './csv';

describe('CSV', () => {
  it('quotes fields with comma, quote, newline, tab or space and doubles quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a b')).toBe('"a b"');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('a\tb')).toBe('"a\tb"');
    expect(csvField(true)).toBe('1');
    expect(csvField(false)).toBe('0');
    expect(csvField(null)).toBe('');
  });

  it('flattens nested objects with dots and arrays with indexes, dropping JSON-LD keys', () => {
    expect(
      flatten({
        id: 1,
        address: { city: 'Paris' },
        tags: ['a', 'b'],
        status: { '@id': '/s/1', code: 'x' },
      }),
    ).toEqual({
      id: 1,
      'address.city': 'Paris',
      'tags.0': 'a',
      'tags.1': 'b',
      'status.code': 'x',
    });
  });

  it('writes a header and one row per record', () => {
    expect(
      csvDocument([
        { a: 1, b: 'x y' },
        { a: 2, c: true },
      ]),
    ).toBe('a,b,c\n1,"x y",\n2,,1\n');
  });
});

describe('plannedColumns', () => {
  it('flattens an embedded resource into the members the record reader embeds', () => {
    class Media {}
    const resource = {
      properties: [
        { name: 'id', kind: 'column', type: 'string', readable: true, options: {} },
        {
          name: 'logo',
          kind: 'object',
          type: 'object',
          readable: true,
          options: {},
          target: Media,
        },
      ],
    } as unknown as ResourceMeta;
    const columns = plannedColumns(resource, 'whole', new Map(), (target) =>
      target === Media ? ['id', 'filePath'] : [],
    );
    expect(columns.map((c) => c.header)).toEqual(['id', 'logo.id', 'logo.filePath']);
    expect(columns[2].get({ id: 'x', logo: { id: 'm', filePath: '/f' } })).toBe('/f');
  });

  it('keeps to the declared embedProperties of an embedded resource', () => {
    class Status {}
    const resource = {
      properties: [
        {
          name: 'shipmentStatus',
          kind: 'object',
          type: 'object',
          readable: true,
          options: { embed: true, embedProperties: ['id', 'code', 'title'] },
          target: Status,
        },
      ],
    } as unknown as ResourceMeta;
    const columns = plannedColumns(resource, 'whole', new Map(), () => [
      'id',
      'entity',
      'code',
      'title',
    ]);
    expect(columns.map((c) => c.header)).toEqual([
      'shipmentStatus.id',
      'shipmentStatus.code',
      'shipmentStatus.title',
    ]);
  });
});

describe('CSV formula injection (OWASP)', () => {
  it.each([
    ['=HYPERLINK("http://evil","x")', `"'=HYPERLINK(""http://evil"",""x"")"`],
    ['+cmd|calc', "'+cmd|calc"],
    ['-1+2', "'-1+2"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', `"'\t=1"`],
    ['\r=1', `"'\r=1"`],
    ['-', "'-"],
  ])('prefixes %j with a quote', (input, expected) => {
    expect(csvField(input)).toBe(expected);
  });

  it('keeps numbers numeric, also negative decimals given as strings', () => {
    expect(csvField(-5)).toBe('-5');
    expect(csvField(-0.5)).toBe('-0.5');
    expect(csvField('-12.50')).toBe('-12.50');
    expect(csvField('+3')).toBe("'+3");
    expect(csvField('a=b')).toBe('a=b');
  });
});
