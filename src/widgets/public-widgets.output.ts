import { Documented } from '../hydra/validation/documented';
import { WIDGET_OPTIONS, WIDGET_TYPES, type WidgetOption, type WidgetType } from './widget.entity';

const TEXT = { type: 'string', nullable: true, required: true } as const;
const INSTANT = { type: 'string', format: 'date-time', nullable: true, required: true } as const;

/** An enabled widget, as the store page embedding it reads it. */
export class PublicWidgetOutput {
  @Documented({ type: 'string', format: 'uuid', required: true }) id!: string;
  @Documented({ type: 'string', required: true }) title!: string;
  @Documented({ type: 'string', enum: WIDGET_TYPES, required: true }) type!: WidgetType;
  @Documented({
    type: 'array',
    items: 'string',
    required: true,
    description: `Of ${WIDGET_OPTIONS.join(', ')}.`,
  })
  options!: WidgetOption[];
}

/** A checkpoint, when the widget shows them (`show_checkpoints`). */
export class WidgetCheckpoint {
  @Documented(INSTANT) checkpointDate!: string | null;
  @Documented({ type: 'string', required: true }) status!: string;
  @Documented(TEXT) info!: string | null;
  @Documented(TEXT) location!: string | null;
  @Documented(TEXT) countryIso2!: string | null;
}

/** A shipment found through a widget: its status, and what the widget's options show. */
export class WidgetShipment {
  @Documented(TEXT) trackingNumber!: string | null;
  @Documented(TEXT) trackingStatus!: string | null;
  @Documented(INSTANT) shippedAt!: string | null;
  @Documented(INSTANT) lastStatusUpdate!: string | null;
  @Documented({ type: 'string', nullable: true, description: 'With `show_carrier`.' })
  originCarrier?: string | null;
  @Documented({ type: 'string', nullable: true, description: 'With `show_carrier`.' })
  destinationCarrier?: string | null;
  @Documented({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'With `show_expected_delivery`.',
  })
  expectedDeliveryDate?: string | null;
  @Documented({
    type: 'array',
    of: () => WidgetCheckpoint,
    description: 'With `show_checkpoints`: the latest first.',
  })
  checkpoints?: WidgetCheckpoint[];
}

/** The shipments a store visitor's lookup found. */
export class WidgetLookup {
  @Documented({ type: 'string', required: true, description: 'The widget’s IRI.' }) widget!: string;
  @Documented({ type: 'array', of: () => WidgetShipment, required: true })
  shipments!: WidgetShipment[];
}
