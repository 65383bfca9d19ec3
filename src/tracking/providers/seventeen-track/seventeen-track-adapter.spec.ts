import { fakeProviderContext } from '../../../../test/fakes/provider-call-context';
import { startSeventeenTrackFake } from '../../../../test/fakes/seventeen-track-fake';
import { ProviderCredentialsRejected } from '../remote/provider-adapter';
import { seventeenTrackAdapter, seventeenTrackSignature } from './seventeen-track-adapter';
import { carrierOfSeventeenTrackKey, seventeenTrackKeyOf } from './seventeen-track-carriers';
import { mapTrackInfo, type SeventeenTrackInfo } from './seventeen-track-track-info';

const credentials = {
  id: 'c1',
  type: '17track' as const,
  baseUrl: 'http://127.0.0.1:1/track/v2.2',
  parameters: {},
  secrets: { apiKey: 'secret-key' },
};

const INFO: SeventeenTrackInfo = {
  shipping_info: { shipper_address: { country: 'CN' }, recipient_address: { country: 'us' } },
  latest_status: { status: 'OutForDelivery', sub_status: 'OutForDelivery_Other' },
  time_metrics: {
    estimated_delivery_date: { from: '2026-03-13T00:00:00Z', to: '2026-03-14T00:00:00Z' },
  },
  misc_info: { local_key: 21051 },
  tracking: {
    providers: [
      {
        provider: { key: 21051 },
        events: [
          {
            time_iso: '2026-03-09T08:00:00-05:00',
            time_utc: '2026-03-09T13:00:00Z',
            description: 'Out for delivery',
            location: 'BROOKLYN NY',
            stage: null,
            address: { country: 'US' },
          },
        ],
      },
      {
        provider: { key: 3011 },
        events: [
          {
            time_iso: '2026-03-02T09:10:00+08:00',
            description: 'Acceptance',
            location: 'SHENZHEN',
            stage: null,
            address: { country: 'CN' },
          },
          { time_iso: 'not a date', description: 'ignored' },
        ],
      },
    ],
  },
};

describe('17TRACK carrier keys', () => {
  it.each([
    [3011, 'china-post'],
    [100001, 'dhl'],
    [100002, 'ups'],
    [100003, 'fedex'],
    [21051, 'usps'],
  ])('maps key %d to %s and back', (key, code) => {
    expect(carrierOfSeventeenTrackKey(key)).toBe(code);
    expect(carrierOfSeventeenTrackKey(String(key))).toBe(code);
    expect(seventeenTrackKeyOf(code)).toBe(key);
  });

  it('maps unknown keys and codes to nothing', () => {
    expect(carrierOfSeventeenTrackKey(999999)).toBeNull();
    expect(carrierOfSeventeenTrackKey('toString')).toBeNull();
    expect(seventeenTrackKeyOf('yodel')).toBeUndefined();
    expect(seventeenTrackKeyOf(null)).toBeUndefined();
  });
});

describe('17TRACK track_info mapping', () => {
  const result = mapTrackInfo(INFO, { carrierKey: 3011, carrierCode: 'china-post' });

  it('gives the newest event without a stage the latest status, older ones in_transit', () => {
    expect(result.checkpoints.map((c) => [c.info, c.status, c.rawStatus])).toEqual([
      ['Out for delivery', 'delivery_in_progress', 'OutForDelivery/OutForDelivery_Other'],
      ['Acceptance', 'in_transit', null],
    ]);
  });

  it('keeps dates with their offset, countries, carriers and the last-mile relation', () => {
    const [last, first] = result.checkpoints;
    expect(first.checkpointDate.toISOString()).toBe('2026-03-02T01:10:00.000Z');
    expect([first.carrierCode, first.rel, first.countryIso2]).toEqual([
      'china-post',
      'origin',
      'CN',
    ]);
    expect([last.carrierCode, last.rel, last.countryIso2]).toEqual(['usps', 'destination', 'US']);
  });

  it('reports the destination carrier, countries and the latest estimated delivery date', () => {
    expect(result.facts).toEqual({
      destinationCarrier: 'usps',
      originCountryIso2: 'CN',
      destinationCountryIso2: 'US',
      expectedDeliveryDate: new Date('2026-03-14T00:00:00Z'),
    });
  });

  it('names checkpoints stably, so a repeated event is the same checkpoint', () => {
    const again = mapTrackInfo(INFO, { carrierKey: 3011, carrierCode: 'china-post' });
    expect(again.checkpoints.map((c) => c.externalId)).toEqual(
      result.checkpoints.map((c) => c.externalId),
    );
    expect(new Set(result.checkpoints.map((c) => c.externalId)).size).toBe(2);
  });

  it('takes the first of several providers as last mile when local_key is absent', () => {
    const noLocal = mapTrackInfo(
      { ...INFO, misc_info: null },
      { carrierKey: 3011, carrierCode: 'china-post' },
    );
    expect(noLocal.facts.destinationCarrier).toBe('usps');
    const single = mapTrackInfo(
      { ...INFO, misc_info: null, tracking: { providers: [INFO.tracking!.providers![1]] } },
      { carrierKey: 3011, carrierCode: 'china-post' },
    );
    expect(single.facts.destinationCarrier).toBeNull();
    expect(single.checkpoints.every((c) => c.rel === 'origin')).toBe(true);
  });

  it('maps nothing to nothing', () => {
    expect(mapTrackInfo(undefined, { carrierKey: null, carrierCode: null })).toEqual({
      checkpoints: [],
      facts: {},
    });
  });
});

describe('17TRACK pushes', () => {
  const body = Buffer.from(
    JSON.stringify({
      event: 'TRACKING_UPDATED',
      data: { number: 'RR1CN', carrier: 3011, track_info: INFO },
    }),
  );
  const verify = (headers: Record<string, string | undefined>, raw = body) =>
    seventeenTrackAdapter.verifyPush!(credentials, { headers, rawBody: raw });

  it('accepts sign = sha256(body + "/" + key), in either case', () => {
    const sign = seventeenTrackSignature(body, 'secret-key');
    expect(verify({ sign })).toBe(true);
    expect(verify({ sign: sign.toUpperCase() })).toBe(true);
  });

  it('refuses a missing, malformed or wrong signature, or another body', () => {
    expect(verify({})).toBe(false);
    expect(verify({ sign: 'abc' })).toBe(false);
    expect(verify({ sign: seventeenTrackSignature(body, 'other-key') })).toBe(false);
    expect(verify({ sign: seventeenTrackSignature(body, 'secret-key') }, Buffer.from('{}'))).toBe(
      false,
    );
    expect(
      seventeenTrackAdapter.verifyPush!(
        { ...credentials, secrets: {} },
        { headers: { sign: seventeenTrackSignature(body, '') }, rawBody: body },
      ),
    ).toBe(false);
  });

  it('maps TRACKING_UPDATED and ignores TRACKING_STOPPED and garbage', () => {
    const [update] = seventeenTrackAdapter.parsePush!(JSON.parse(body.toString()));
    expect(update.trackingNumber).toBe('RR1CN');
    expect(update.carrierCode).toBe('china-post');
    expect(update.result.checkpoints).toHaveLength(2);
    expect(
      seventeenTrackAdapter.parsePush!({ event: 'TRACKING_STOPPED', data: { number: 'RR1CN' } }),
    ).toEqual([]);
    expect(seventeenTrackAdapter.parsePush!(null)).toEqual([]);
    expect(seventeenTrackAdapter.parsePush!('text')).toEqual([]);
    expect(seventeenTrackAdapter.parsePush!({ event: 'TRACKING_UPDATED', data: {} })).toEqual([]);
  });
});

describe('17TRACK stop against the fake', () => {
  it('answers null for stopped numbers and a permanent error for refused ones', async () => {
    const fake = await startSeventeenTrackFake();
    try {
      const ctx = fakeProviderContext({
        ...credentials,
        baseUrl: fake.apiUrl,
        secrets: { apiKey: fake.apiKey },
      });
      fake.registered.set('RR123456785CN', { carrier: 3011, stopped: false });
      const result = await seventeenTrackAdapter.stop!(ctx, [
        { trackingNumber: 'RR123456785CN', carrierCode: 'china-post' },
        { trackingNumber: 'LX000000000CN', carrierCode: null },
      ]);
      expect(result.get('RR123456785CN')).toBeNull();
      expect(fake.registered.get('RR123456785CN')?.stopped).toBe(true);
      expect(result.get('LX000000000CN')).toMatchObject({ kind: 'permanent' });
      expect(result.get('LX000000000CN')?.message).toContain('-18019902');
    } finally {
      await fake.close();
    }
  });

  it('words refusals itself: 17TRACK\u2019s own message is only the operator\u2019s detail', async () => {
    const fake = await startSeventeenTrackFake();
    try {
      const ctx = fakeProviderContext({
        ...credentials,
        baseUrl: fake.apiUrl,
        secrets: { apiKey: fake.apiKey },
      });
      const number = 'RR123456785CN';
      fake.server.failNext({
        status: 200,
        body: {
          code: 0,
          data: {
            accepted: [],
            rejected: [{ number, error: { code: -18019999, message: 'words of the server' } }],
          },
        },
      });
      const refused = (
        await seventeenTrackAdapter.register!(ctx, [{ trackingNumber: number, carrierCode: null }])
      ).get(number);
      expect(refused?.message).toBe(`17track refused to register ${number}: error`);
      expect(refused?.detail).toBe('-18019999 words of the server');
      fake.server.failNext({
        status: 200,
        body: { code: -18010002, data: { errors: [{ code: -18010002, message: 'words' }] } },
      });
      const rejected = await seventeenTrackAdapter
        .track(ctx, [{ trackingNumber: number, carrierCode: null }])
        .catch((e: unknown) => e as ProviderCredentialsRejected);
      expect(rejected).toBeInstanceOf(ProviderCredentialsRejected);
      expect((rejected as ProviderCredentialsRejected).message).toBe(
        '17track /gettrackinfo failed: invalid key (-18010002)',
      );
    } finally {
      await fake.close();
    }
  });
});
