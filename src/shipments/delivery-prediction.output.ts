import { Documented } from '../hydra/validation/documented';

/** Where a delivery window comes from (src/predictions/README.md, "Confidence and basis"). */
export class DeliveryPredictionBasisOutput {
  @Documented({
    type: 'string',
    enum: ['carrier', 'history', 'default'],
    required: true,
    description:
      "What expectedDeliveryDate is: the carrier's own date, else the window's likely day.",
  })
  kind!: 'carrier' | 'history' | 'default';
  @Documented({
    type: 'string',
    enum: ['lane_postcode', 'lane', 'carrier_destination', 'carrier', 'default'],
    required: true,
    description:
      'Back-off level of the window: lane and postcode region, lane, carrier and destination country, carrier, default.',
  })
  level!: string;
  @Documented({
    type: 'integer',
    required: true,
    description: 'Deliveries the window learnt from.',
  })
  deliveries!: number;
}

/** A parcel's delivery window, learnt from the team's delivered parcels (read-only). */
export class DeliveryPredictionOutput {
  @Documented({
    type: 'string',
    format: 'date-time',
    required: true,
    description: '10 % quantile.',
  })
  earliest!: string;
  @Documented({ type: 'string', format: 'date-time', required: true, description: 'Median.' })
  likely!: string;
  @Documented({
    type: 'string',
    format: 'date-time',
    required: true,
    description: '90 % quantile.',
  })
  latest!: string;
  @Documented({
    type: 'number',
    required: true,
    description: 'Share of such windows that held the delivery, shrunk toward a prior.',
  })
  confidence!: number;
  @Documented({ type: 'object', of: () => DeliveryPredictionBasisOutput, required: true })
  basis!: DeliveryPredictionBasisOutput;
}
