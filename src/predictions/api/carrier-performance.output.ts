import { Documented } from '../../hydra/validation/documented';

const RATE = { type: 'number', nullable: true, required: true } as const;
const DAYS = { type: 'number', nullable: true, required: true } as const;

/** A 50 % and a 90 % quantile, in days. */
export class DaysQuantilesOutput {
  @Documented({ ...DAYS, description: 'Median, days.' }) p50!: number | null;
  @Documented({ ...DAYS, description: '90 % quantile, days.' }) p90!: number | null;
}

/** On-time rates of delivered parcels. */
export class OnTimeRateOutput {
  @Documented({ ...RATE, description: "Delivered by the first window's latest day." })
  prediction!: number | null;
  @Documented({ ...RATE, description: "Delivered by the carrier's first expected date." })
  carrier!: number | null;
}

/** One carrier's performance (or one carrier's to one destination) over the range. */
export class CarrierPerformanceOutput {
  @Documented({ type: 'string', required: true, description: 'Origin carrier code (- unknown).' })
  carrier!: string;
  @Documented({
    type: 'string',
    nullable: true,
    required: true,
    description: 'Destination country (ISO 2, - unknown); null when not grouped by destination.',
  })
  destinationCountry!: string | null;
  @Documented({ type: 'integer', required: true, description: 'Shipments created in the range.' })
  shipments!: number;
  @Documented({ type: 'integer', required: true }) delivered!: number;
  @Documented({ ...RATE, description: 'delivered / shipments.' }) deliveryRate!: number | null;
  @Documented({
    type: 'object',
    of: () => DaysQuantilesOutput,
    required: true,
    description: 'Shipped to delivered.',
  })
  transitDays!: DaysQuantilesOutput;
  @Documented({
    type: 'object',
    of: () => DaysQuantilesOutput,
    required: true,
    description: 'Created to first scan.',
  })
  pickupLatencyDays!: DaysQuantilesOutput;
  @Documented({ ...RATE, description: 'Delivered without a failed attempt / delivered.' })
  firstAttemptRate!: number | null;
  @Documented({ ...RATE, description: 'Ever in an error status / shipments.' })
  exceptionRate!: number | null;
  @Documented({ ...RATE, description: 'Returned to sender / shipments.' }) returnRate!:
    number | null;
  @Documented({ type: 'object', of: () => OnTimeRateOutput, required: true })
  onTimeRate!: OnTimeRateOutput;
}
