import { Transform } from 'class-transformer';
import { ViolationCodes } from '../../common/errors/api-errors';
import { Assert, MaxCount, MinCount } from '../../hydra/validation/constraints';
import { Typed } from '../../hydra/validation/input-types';

/** Shipments one synchronous check may name; the async form takes more. */
export const MAX_SYNC_CHECK = 100;
export const MAX_ASYNC_CHECK = 5000;

const given = (v: unknown) => v !== undefined && v !== null;
const blank = (v: unknown) => !given(v) || (typeof v === 'string' && v.trim() === '');

/** `["n1", {"number": "n2", "originCarrier": "ups"}]` -> `["n1", "n2"]` (the reference's forms). */
const trackingNumbers = ({ value }: { value: unknown }) =>
  Array.isArray(value)
    ? value.map((v: unknown) =>
        v !== null && typeof v === 'object' && !Array.isArray(v) && 'number' in v
          ? (v as { number: unknown }).number
          : v,
      )
    : value;

/**
 * The shipments a tracking check names: `ids` (ids or IRIs), or `trackingNumbers` of the
 * workspace `workspaceId` (`workspace` is accepted for it) — one form, not both.
 */
abstract class TrackingCheckInput {
  /** Id or IRI of the workspace whose `trackingNumbers` are given. */
  @Typed('string')
  @Assert(
    'workspaceWithNumbers',
    (v, o: TrackingCheckInput) => !given(o.trackingNumbers) || !blank(v) || !blank(o.workspace),
    'This value should not be blank.',
    { code: ViolationCodes.notBlank },
  )
  workspaceId?: string | null;
  /** Same as `workspaceId`. */
  @Typed('string') workspace?: string | null;

  abstract ids?: string[] | null;
  abstract trackingNumbers?: string[] | null;
}

const notBoth = Assert(
  'idsOrNumbers',
  (v, o: TrackingCheckInput) => !(given(v) && given(o.trackingNumbers)),
  'Give either ids or trackingNumbers, not both.',
  { code: ViolationCodes.notBlank },
);
const oneOf = Assert(
  'shipmentsGiven',
  (v, o: TrackingCheckInput) => given(v) || given(o.ids),
  'Give the shipments to check: ids, or trackingNumbers with workspaceId.',
  { code: ViolationCodes.notBlank },
);

/** `POST /check_tracking_numbers`: up to 100 shipments, checked now. */
export class CheckTrackingNumbersInput extends TrackingCheckInput {
  /** Shipment ids or IRIs. */
  @Typed('string', { each: true })
  @notBoth
  @MinCount(1)
  @MaxCount(MAX_SYNC_CHECK)
  ids?: string[] | null;
  /** Tracking numbers, or `{"number": ...}` objects. */
  @Typed('string', { each: true })
  @oneOf
  @MinCount(1)
  @MaxCount(MAX_SYNC_CHECK)
  @Transform(trackingNumbers)
  trackingNumbers?: string[] | null;
}

/** `POST /check_tracking_numbers_async`: up to 5000 shipments, checked in the background. */
export class CheckTrackingNumbersAsyncInput extends TrackingCheckInput {
  /** Shipment ids or IRIs. */
  @Typed('string', { each: true })
  @notBoth
  @MinCount(1)
  @MaxCount(MAX_ASYNC_CHECK)
  ids?: string[] | null;
  /** Tracking numbers, or `{"number": ...}` objects. */
  @Typed('string', { each: true })
  @oneOf
  @MinCount(1)
  @MaxCount(MAX_ASYNC_CHECK)
  @Transform(trackingNumbers)
  trackingNumbers?: string[] | null;
}
