import {
  advanceCursor,
  DEFAULT_BACKFILL_DAYS,
  IMPORT_OVERLAP_MS,
  importWindowStart,
} from './import-cursor';

const now = new Date('2024-06-01T12:00:00Z');

describe('importWindowStart', () => {
  it('backfills 30 days (or the workflow’s days) on a first run', () => {
    expect(importWindowStart(null, now)).toEqual(new Date('2024-05-02T12:00:00Z'));
    expect(DEFAULT_BACKFILL_DAYS).toBe(30);
    expect(importWindowStart(null, now, 7)).toEqual(new Date('2024-05-25T12:00:00Z'));
    expect(importWindowStart(null, now, 0)).toEqual(now);
  });

  it('starts the overlap before the cursor afterwards', () => {
    expect(importWindowStart({ changedUpTo: '2024-06-01T11:00:00.000Z' }, now)).toEqual(
      new Date(Date.parse('2024-06-01T11:00:00Z') - IMPORT_OVERLAP_MS),
    );
  });

  it('treats an unreadable cursor as none', () => {
    expect(importWindowStart({ changedUpTo: 'garbage' }, now, 1)).toEqual(
      new Date('2024-05-31T12:00:00Z'),
    );
  });
});

describe('advanceCursor', () => {
  it('moves to the latest change of the page, never backwards', () => {
    const page = [
      { updatedAt: new Date('2024-05-03T00:00:00Z') },
      { updatedAt: new Date('2024-05-05T00:00:00Z') },
      { updatedAt: new Date('2024-05-04T00:00:00Z') },
    ];
    expect(advanceCursor(null, page)).toEqual({ changedUpTo: '2024-05-05T00:00:00.000Z' });
    expect(advanceCursor({ changedUpTo: '2024-05-10T00:00:00.000Z' }, page)).toEqual({
      changedUpTo: '2024-05-10T00:00:00.000Z',
    });
    expect(advanceCursor(null, [])).toBeNull();
    expect(advanceCursor({ changedUpTo: '2024-05-10T00:00:00.000Z' }, [])).toEqual({
      changedUpTo: '2024-05-10T00:00:00.000Z',
    });
  });
});
