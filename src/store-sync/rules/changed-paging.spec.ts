import fc from 'fast-check';
import {
  changedPageFromToken,
  changedPageToken,
  changedQueryStart,
  firstChangedPage,
  idAfter,
  MAX_SEEN_IDS,
  readChangedPage,
  type ChangedPage,
} from './changed-paging';

interface Row {
  id: string;
  updatedAt: Date;
}

const t = (seconds: number) => new Date(Date.UTC(2024, 4, 1) + seconds * 1000);

/**
 * A store's listings: "changed after/since X, oldest first, page 1" (ties in an order of the
 * store's own, here by id descending, with or without excluded ids), and "changed within one
 * second, by id, from min_id or offset".
 */
function fakeStore(rows: Row[], options: { inclusive: boolean; canExclude: boolean }) {
  const byTime = (a: Row, b: Row) =>
    a.updatedAt.getTime() - b.updatedAt.getTime() || b.id.localeCompare(a.id);
  const numericId = (id: string) => Number(id.slice(1));
  return (page: ChangedPage, perPage: number): Row[] => {
    if (page.mode === 'since') {
      const start = changedQueryStart(page).getTime();
      const excluded = new Set(options.canExclude ? page.seen : []);
      return rows
        .filter((r) =>
          options.inclusive ? r.updatedAt.getTime() >= start : r.updatedAt.getTime() > start,
        )
        .filter((r) => !excluded.has(r.id))
        .sort(byTime)
        .slice(0, perPage)
        .map((r) => ({ ...r }));
    }
    const second = Date.parse(page.second);
    const inSecond = rows
      .filter((r) => Math.floor(r.updatedAt.getTime() / 1000) * 1000 === second)
      .sort((a, b) => numericId(a.id) - numericId(b.id));
    const after = idAfter(page.afterId === null ? null : String(numericId(page.afterId)));
    const from = options.canExclude
      ? inSecond.slice(page.skip) // offset-only stores
      : inSecond.filter((r) => after === null || numericId(r.id) >= Number(after));
    return from.slice(0, perPage).map((r) => ({ ...r }));
  };
}

function readAll(
  rows: Row[],
  since: Date,
  perPage: number,
  options: { inclusive: boolean; canExclude: boolean },
  between: (pageIndex: number) => void = () => {},
): string[] {
  const list = fakeStore(rows, options);
  const read: string[] = [];
  let token = changedPageToken(firstChangedPage(since));
  for (let i = 0; i < 10_000; i++) {
    // Tokens are stored between pages as JSON.
    const at = changedPageFromToken(JSON.parse(JSON.stringify(token)), since);
    const { fresh, next } = readChangedPage(at, list(at, perPage), perPage);
    read.push(...fresh.map((r) => r.id));
    between(i);
    if (!next) return read;
    token = changedPageToken(next);
  }
  throw new Error('paging did not end');
}

const STORES = [
  { inclusive: true, canExclude: false },
  { inclusive: false, canExclude: false },
  { inclusive: true, canExclude: true },
  { inclusive: false, canExclude: true },
];

describe('changed-since paging', () => {
  it.each(STORES)('reads every order once when nothing changes (%j)', (store) => {
    const rows = Array.from({ length: 23 }, (_, i) => ({ id: `o${i}`, updatedAt: t(i) }));
    const read = readAll(rows, t(0), 5, store);
    expect(read.sort()).toEqual(rows.map((r) => r.id).sort());
  });

  it.each(STORES)('gets through a second shared by more orders than a page (%j)', (store) => {
    const rows = [
      ...Array.from({ length: 12 }, (_, i) => ({ id: `o${i}`, updatedAt: t(10) })),
      { id: 'o20', updatedAt: t(11) },
      { id: 'o21', updatedAt: t(5) },
    ];
    const read = readAll(rows, t(6), 5, store);
    expect(new Set(read)).toEqual(new Set(rows.map((r) => r.id).filter((id) => id !== 'o21')));
  });

  it.each(STORES)('loses no order when orders change between pages (%j)', (store) => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 2, max: 7 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (seconds, perPage, touches) => {
          const rows = seconds.map((s, i) => ({ id: `o${i}`, updatedAt: t(s) }));
          let clock = 100;
          const read = readAll(rows, t(0), perPage, store, (pageIndex) => {
            // After a page, an order (maybe one already read) changes: it moves to the end.
            const touch = touches[pageIndex];
            if (touch !== undefined) rows[touch % rows.length].updatedAt = t(clock++);
          });
          expect(new Set(read)).toEqual(new Set(rows.map((r) => r.id)));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('drops orders before the listing and those already seen at its start', () => {
    const at: ChangedPage = { mode: 'since', since: t(10).toISOString(), seen: ['a'] };
    const { fresh, next } = readChangedPage(
      at,
      [
        { id: 'old', updatedAt: t(9) },
        { id: 'a', updatedAt: t(10) },
        { id: 'b', updatedAt: new Date(t(10).getTime() + 400) },
      ],
      5,
    );
    expect(fresh.map((o) => o.id)).toEqual(['b']);
    expect(next).toBeNull();
  });

  it('stops excluding ids after MAX_SEEN_IDS and pages that second by id', () => {
    const seen = Array.from({ length: MAX_SEEN_IDS }, (_, i) => `s${i}`);
    const at: ChangedPage = { mode: 'since', since: t(10).toISOString(), seen };
    const { next } = readChangedPage(at, [{ id: 'x', updatedAt: t(10) }], 1);
    expect(next).toEqual({ mode: 'second', second: t(10).toISOString(), afterId: null, skip: 0 });
  });

  it('asks the store one second early', () => {
    expect(changedQueryStart({ mode: 'since', since: t(10).toISOString(), seen: [] })).toEqual(
      t(9),
    );
  });

  it('reads tokens back and starts over from a missing or foreign one', () => {
    const page: ChangedPage = {
      mode: 'second',
      second: t(3).toISOString(),
      afterId: '17',
      skip: 4,
    };
    expect(changedPageFromToken(JSON.parse(JSON.stringify(changedPageToken(page))), t(0))).toEqual(
      page,
    );
    expect(changedPageFromToken(null, t(0))).toEqual(firstChangedPage(t(0)));
    expect(changedPageFromToken({ page: 3 }, t(0))).toEqual(firstChangedPage(t(0)));
  });

  it('counts the id after a numeric id', () => {
    expect(idAfter('41')).toBe('42');
    expect(idAfter('9007199254740993')).toBe('9007199254740994');
    expect(idAfter(null)).toBeNull();
  });
});
