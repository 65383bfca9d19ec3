import { upsDay, upsInstant, upsLocalStamp } from './ups-dates';

describe('UPS dates', () => {
  it('reads the local date and time at their gmtOffset', () => {
    expect(upsInstant({ date: '20240422', time: '211500', gmtOffset: '-05:00' })).toEqual(
      new Date('2024-04-23T02:15:00Z'),
    );
    expect(upsInstant({ date: '20240422', time: '091230', gmtOffset: '+05:30' })).toEqual(
      new Date('2024-04-22T03:42:30Z'),
    );
  });

  it('accepts offsets written without a colon or a leading zero', () => {
    expect(upsInstant({ date: '20240101', time: '120000', gmtOffset: '-0500' })).toEqual(
      new Date('2024-01-01T17:00:00Z'),
    );
    expect(upsInstant({ date: '20240101', time: '120000', gmtOffset: '+9' })).toEqual(
      new Date('2024-01-01T03:00:00Z'),
    );
  });

  it('falls back to the GMT date and time, padding times that lost their leading zero', () => {
    // Official example: gmtTime "74700" is 07:47:00.
    expect(
      upsInstant({ date: '20210210', time: '024700', gmtDate: '20210210', gmtTime: '74700' }),
    ).toEqual(new Date('2021-02-10T07:47:00Z'));
    expect(upsInstant({ gmtDate: '20240423', gmtTime: '01:29:01' })).toEqual(
      new Date('2024-04-23T01:29:01Z'),
    );
  });

  it('prefers the offset reading to the GMT fields when both are there and agree', () => {
    const when = {
      date: '20240422',
      time: '212901',
      gmtOffset: '-04:00',
      gmtDate: '20240423',
      gmtTime: '012901',
    };
    expect(upsInstant(when)).toEqual(new Date('2024-04-23T01:29:01Z'));
  });

  it('reads a local time with no zone at all as UTC, never as the server zone', () => {
    expect(upsInstant({ date: '20240422', time: '091230' })).toEqual(
      new Date('2024-04-22T09:12:30Z'),
    );
    expect(upsInstant({ date: '20240422' })).toEqual(new Date('2024-04-22T00:00:00Z'));
  });

  it('gives null for unreadable dates', () => {
    expect(upsInstant({})).toBeNull();
    expect(upsInstant({ date: '2024-04-22', time: '091230' })).toBeNull();
    expect(upsInstant({ date: '20241322', time: '091230', gmtOffset: '-05:00' })).toBeNull();
    expect(upsDay('')).toBeNull();
  });

  it('reads calendar dates as midnight UTC and normalises local stamps', () => {
    expect(upsDay('20240905')).toEqual(new Date('2024-09-05T00:00:00Z'));
    expect(upsLocalStamp('20240423', '95004')).toBe('20240423T095004');
    expect(upsLocalStamp('20240423', undefined)).toBe('20240423T000000');
    expect(upsLocalStamp(undefined, '095004')).toBeNull();
  });
});
