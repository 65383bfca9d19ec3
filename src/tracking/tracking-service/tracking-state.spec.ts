import { DEFAULT_TRACKING_LIMITS } from '../engine';
import type { ProviderCheckpoint } from '../providers';
import {
  checkpointRecords,
  engineCheckpoint,
  expectedDateDiffers,
  firstTrackingState,
  nextTrackingState,
  untrackedRow,
  type ShipmentTrackingRow,
  type TrackingUpdate,
} from './tracking-state';

const HOUR = 3_600_000;
const now = new Date('2026-03-10T12:00:00Z');
const options = { now, limitsFor: () => DEFAULT_TRACKING_LIMITS };
const created = untrackedRow({
  id: '00000000-0000-4000-8000-000000000001',
  workspaceId: '00000000-0000-4000-8000-0000000000aa',
  trackingNumber: 'TM102123456789TM',
  originCarrier: 'tm-test',
  createdAt: now,
});

function checkpoint(
  externalId: string,
  hoursAgo: number,
  status: ProviderCheckpoint['status'],
  extra: Partial<ProviderCheckpoint> = {},
): ProviderCheckpoint {
  return {
    externalId,
    checkpointDate: new Date(now.getTime() - hoursAgo * HOUR),
    status,
    info: `${status} ${externalId}`,
    location: 'Shenzhen, CN',
    countryIso2: 'CN',
    carrierCode: 'tm-test',
    rel: 'origin',
    ...extra,
  };
}

const report = (checkpoints: ProviderCheckpoint[], facts = {}): TrackingUpdate => ({
  shipmentId: created.id,
  checkpoints,
  facts,
  source: 'provider',
});

describe('checkpointRecords', () => {
  it('writes one row per external id, the last report of an id winning', () => {
    const records = checkpointRecords(
      created,
      report([
        checkpoint('a', 30, 'pre_transit'),
        checkpoint('b', 20, 'in_transit', { carrierCode: '', rel: undefined, rawStatus: 'IT' }),
        checkpoint('a', 25, 'pre_transit', { info: 'label printed' }),
      ]),
    );
    expect(records).toEqual([
      {
        shipment_id: created.id,
        workspace_id: created.workspace_id,
        external_id: 'a',
        checkpoint_date: new Date(now.getTime() - 25 * HOUR).toISOString(),
        status: 'pre_transit',
        info: 'label printed',
        location: 'Shenzhen, CN',
        country_iso2: 'CN',
        carrier: 'tm-test',
        rel: 'origin',
        raw_status: null,
        source: 'provider',
      },
      expect.objectContaining({ external_id: 'b', carrier: null, rel: null, raw_status: 'IT' }),
    ]);
  });
});

describe('engineCheckpoint', () => {
  it('reads a stored checkpoint, and skips a status the engine does not know', () => {
    const stored = {
      checkpoint_date: '2026-03-09T10:00:00.000Z',
      status: 'in_transit',
      country_iso2: 'DE',
      carrier: 'dhl',
      rel: 'destination',
    };
    expect(engineCheckpoint(stored)).toEqual({
      checkpointDate: new Date('2026-03-09T10:00:00.000Z'),
      status: 'in_transit',
      countryIso2: 'DE',
      carrierCode: 'dhl',
      rel: 'destination',
    });
    expect(engineCheckpoint({ ...stored, status: 'lost_in_space' })).toBeNull();
  });
});

describe('firstTrackingState', () => {
  const journey = [
    checkpoint('label', 30, 'pre_transit'),
    checkpoint('pickup', 20, 'in_transit'),
    checkpoint('hub', 10, 'in_transit'),
  ];

  it('is what the stored checkpoints give a shipment tracked after its insert', () => {
    const first = firstTrackingState(
      created,
      report(journey, { destinationCountryIso2: 'DE' }),
      options,
    );
    const afterInsert = nextTrackingState(
      created,
      journey.map((c) => engineCheckpoint(checkpointRecords(created, report([c]))[0])!),
      report(journey, { destinationCountryIso2: 'DE' }),
      3,
      options,
    );
    expect(first).toEqual({
      ...afterInsert,
      checkpoints: checkpointRecords(created, report(journey)),
    });
    expect(first.columns).toMatchObject({
      tracking_status: 'in_transit',
      shipped_at: journey[1].checkpointDate.toISOString(),
      last_status_update: journey[1].checkpointDate.toISOString(),
      destination_country_iso2: 'DE',
      tracking_attempts: 0,
      next_check_at: new Date(now.getTime() + 3 * HOUR).toISOString(),
      last_tracked_at: now.toISOString(),
      tracking_facts: expect.objectContaining({ destinationCountryIso2: 'DE' }),
    });
    expect(first.touched).toBe(true);
    expect(first.outcome).toMatchObject({ statusChanged: true, newCheckpoints: 3 });
  });

  it('announces the first status as a change from none', () => {
    const { event } = firstTrackingState(created, report(journey), options);
    expect(event).toEqual({
      type: 'shipment.status_changed',
      workspaceId: created.workspace_id,
      aggregateType: 'shipment',
      aggregateId: created.id,
      payload: {
        shipment: `/shipments/${created.id}`,
        trackingNumber: created.tracking_number,
        previousStatus: null,
        trackingStatus: 'in_transit',
        lastStatusUpdate: journey[1].checkpointDate.toISOString(),
      },
    });
  });

  it('leaves a shipment without a number untracked: no status, no event, no next check', () => {
    const state = firstTrackingState({ ...created, tracking_number: null }, report([]), options);
    expect(state.columns).toMatchObject({
      tracking_status: null,
      next_check_at: null,
      tracking_attempts: 1,
    });
    expect(state.event).toBeNull();
    expect(state.checkpoints).toEqual([]);
  });

  it('gives a number the carrier does not know yet no_info, checked again in 6 hours', () => {
    const state = firstTrackingState(created, report([]), options);
    expect(state.columns).toMatchObject({
      tracking_status: 'no_info',
      tracking_attempts: 0,
      next_check_at: new Date(now.getTime() + 6 * HOUR).toISOString(),
    });
    expect(state.event?.payload).toMatchObject({ previousStatus: null, trackingStatus: 'no_info' });
  });
});

describe('nextTrackingState', () => {
  const stored: ShipmentTrackingRow = {
    ...created,
    tracking_status: 'in_transit',
    last_status_update: new Date(now.getTime() - 20 * HOUR),
    shipped_at: new Date(now.getTime() - 20 * HOUR),
    tracking_attempts: 2,
    tracking_facts: { destinationCarrier: 'dhl' },
  };
  const checkpoints = [checkpoint('pickup', 20, 'in_transit')].map((c) =>
    engineCheckpoint(checkpointRecords(stored, report([c]))[0])!,
  );

  it('counts a check that brought nothing new, and records no event', () => {
    const state = nextTrackingState(stored, checkpoints, report([]), 0, options);
    expect(state.event).toBeNull();
    expect(state.columns.tracking_attempts).toBe(3);
    expect(state.columns.destination_carrier).toBe('dhl');
    expect(state.outcome).toMatchObject({ previousStatus: 'in_transit', statusChanged: false });
  });

  it('puts the next check of a pushed shipment at least pollAfterMs away', () => {
    const state = nextTrackingState(
      stored,
      checkpoints,
      { ...report([]), pollAfterMs: 24 * HOUR },
      0,
      options,
    );
    expect(state.columns.next_check_at).toBe(new Date(now.getTime() + 24 * HOUR).toISOString());
  });

  it('tells a change of the expected date apart, which a prediction may decide instead', () => {
    const first = nextTrackingState(stored, checkpoints, report([]), 0, options);
    const date = (iso: string | null) => (iso === null ? null : new Date(iso));
    const likely = new Date(now.getTime() + 48 * HOUR);
    // As written with a prediction: the tracking columns, and `likely` as the expected date.
    const written: ShipmentTrackingRow = {
      ...stored,
      ...first.columns,
      shipped_at: date(first.columns.shipped_at),
      last_status_update: date(first.columns.last_status_update),
      expected_delivery_date: likely,
    };
    const again = nextTrackingState(written, checkpoints, report([]), 0, options);
    expect(again.columns.expected_delivery_date).toBeNull(); // the carrier gave no date
    expect(again.touched).toBe(true);
    expect(again.touchedBesidesExpectedDate).toBe(false);
    expect(expectedDateDiffers(written, new Date(likely.getTime()))).toBe(false);
    expect(expectedDateDiffers(written, null)).toBe(true);
  });
});
