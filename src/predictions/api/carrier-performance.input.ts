import { Assert, Choice, Regex } from '../../hydra/validation/constraints';
import { Documented } from '../../hydra/validation/documented';
import { Typed } from '../../hydra/validation/input-types';
import { dayNumber } from '../analytics/carrier-performance';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** The longest range read (the aligned blocks cover it in a few dozen rows per key). */
export const MAX_RANGE_DAYS = 3 * 366;
/** The range when none is given: the last 30 days. */
export const DEFAULT_RANGE_DAYS = 30;

function isDay(value: unknown): boolean {
  return (
    typeof value === 'string' &&
    DAY.test(value) &&
    !Number.isNaN(dayNumber(value)) &&
    new Date(`${value}T00:00:00Z`).toISOString().startsWith(value)
  );
}

/** `GET /workspaces/{id}/carrier_performance`: the creation days read and the grouping. */
export class CarrierPerformanceInput {
  @Documented({
    type: 'string',
    format: 'date',
    description: 'First creation day (UTC, YYYY-MM-DD); default 30 days before `to`.',
  })
  @Typed('string')
  @Assert('day', (v) => v == null || isDay(v), 'This value is not a valid date (YYYY-MM-DD).')
  from?: string;

  @Documented({
    type: 'string',
    format: 'date',
    description: 'Last creation day (UTC, YYYY-MM-DD); default today.',
  })
  @Typed('string')
  @Assert('day', (v) => v == null || isDay(v), 'This value is not a valid date (YYYY-MM-DD).')
  @Assert(
    'range',
    (v, o: CarrierPerformanceInput) => !isDay(o.from) || !isDay(v) || o.from! <= (v as string),
    '`to` must not be before `from`.',
  )
  @Assert(
    'rangeLength',
    (v, o: CarrierPerformanceInput) =>
      !isDay(o.from) || !isDay(v) || dayNumber(v as string) - dayNumber(o.from!) < MAX_RANGE_DAYS,
    `The range must not be longer than ${MAX_RANGE_DAYS} days.`,
  )
  to?: string;

  @Documented({
    type: 'string',
    enum: ['carrier', 'destination'],
    description: '`destination`: one group per carrier and destination country.',
  })
  @Typed('string')
  @Choice(['carrier', 'destination'])
  groupBy?: string;

  @Documented({
    type: 'string',
    description: 'Only this destination country (ISO 3166-1 alpha-2; implies groupBy=destination).',
  })
  @Typed('string')
  @Regex(/^[A-Za-z]{2}$/)
  destinationCountry?: string;
}
