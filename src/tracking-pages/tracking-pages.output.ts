import { Documented } from '../hydra/validation/documented';
import { PageBuilder } from './page-builder.output';

const TEXT = { type: 'string', nullable: true, required: true } as const;
const INSTANT = { type: 'string', format: 'date-time', nullable: true, required: true } as const;

/** A tracking page's CSS theme: one custom property per colour and size of its builder. */
export class CustomThemeOutput {
  @Documented({ ...TEXT, description: 'The snapshot id (`customThemeId`); null: not snapshotted.' })
  id!: string | null;
  @Documented({ type: 'object', required: true, description: 'CSS custom property -> value.' })
  variables!: Record<string, string>;
  @Documented({ type: 'string', required: true, description: 'The stylesheet.' }) css!: string;
}

/** Whether a subdomain is free across the service. */
export class SubdomainCheckResponse {
  @Documented({ type: 'string', required: true }) subdomain!: string;
  @Documented({ type: 'boolean', required: true, description: 'False when used or reserved.' })
  available!: boolean;
}

/** A shipment's public link. */
export class TrackingPageLinkOutput {
  @Documented({ type: 'string', format: 'uri', required: true }) link!: string;
}

/** The public link of one shipment of a bulk request. */
export class ShipmentLink {
  @Documented({ type: 'string', format: 'uuid', required: true, description: 'The shipment.' })
  id!: string;
  @Documented({ type: 'string', format: 'uri', required: true }) link!: string;
}

/** The public links of several shipments, in the order given. */
export class TrackingPageLinksOutput {
  @Documented({ type: 'array', of: () => ShipmentLink, required: true }) links!: ShipmentLink[];
}

/** The look of a tracking page, as its public link shows it. */
export class PublicPageLook {
  @Documented(TEXT) title!: string | null;
  @Documented({ type: 'string', required: true }) subdomain!: string;
  @Documented(TEXT) domain!: string | null;
  @Documented({
    type: 'object',
    of: () => PageBuilder,
    nullable: true,
    required: true,
    description: 'The page builder’s settings.',
  })
  builder!: unknown;
  @Documented(TEXT) customThemeId!: string | null;
  @Documented(TEXT) sidebarField!: string | null;
  @Documented(TEXT) trackingNumberField!: string | null;
  @Documented({ type: 'boolean', required: true }) reviewsEnabled!: boolean;
}

/** A shipment as its public link shows it: no contact data. */
/** A delivery window on the public page: the first and last likely days. */
export class PublicDeliveryWindowOutput {
  @Documented({ type: 'string', format: 'date-time', required: true }) earliest!: string;
  @Documented({ type: 'string', format: 'date-time', required: true }) latest!: string;
}

export class PublicShipmentOutput {
  @Documented(TEXT) trackingNumber!: string | null;
  @Documented(TEXT) trackingStatus!: string | null;
  @Documented(TEXT) originCarrier!: string | null;
  @Documented(TEXT) destinationCarrier!: string | null;
  @Documented(TEXT) originCountry!: string | null;
  @Documented(TEXT) originCountryIso2!: string | null;
  @Documented(TEXT) destinationCountry!: string | null;
  @Documented(TEXT) destinationCountryIso2!: string | null;
  @Documented(INSTANT) shippedAt!: string | null;
  @Documented(INSTANT) expectedDeliveryDate!: string | null;
  @Documented(INSTANT) lastStatusUpdate!: string | null;
  @Documented({ type: 'integer', nullable: true, required: true }) daysInTransit!: number | null;
  @Documented({ type: 'string', format: 'date-time', required: true }) createdAt!: string;
  @Documented({
    type: 'object',
    of: () => PublicDeliveryWindowOutput,
    nullable: true,
    required: false,
    description: 'The delivery window (80 %) when the carrier gave no date; null otherwise.',
  })
  deliveryWindow?: PublicDeliveryWindowOutput | null;
  @Documented({
    type: 'boolean',
    required: false,
    description: 'Past the delivery window announced, or the promised date.',
  })
  runningLate?: boolean;
  @Documented(TEXT) review!: string | null;
  @Documented({ type: 'number', nullable: true, required: true }) reviewTotalScore!: number | null;
}

/** A checkpoint as a public link shows it. */
export class PublicCheckpointOutput {
  @Documented({ type: 'string', format: 'date-time', required: true }) checkpointDate!: string;
  @Documented({ type: 'string', required: true }) status!: string;
  @Documented(TEXT) info!: string | null;
  @Documented(TEXT) location!: string | null;
  @Documented(TEXT) countryIso2!: string | null;
  @Documented(TEXT) carrier!: string | null;
  @Documented({ type: 'boolean', description: 'The stand-in shown before the first checkpoint.' })
  placeholder?: boolean;
}

/** What a tracking page link shows: the page's look, the shipment, its checkpoints. */
export class PublicTrackingPage {
  @Documented({ of: () => PublicPageLook, required: true }) trackingPage!: PublicPageLook;
  @Documented({ of: () => PublicShipmentOutput, required: true }) shipment!: PublicShipmentOutput;
  @Documented({ type: 'array', of: () => PublicCheckpointOutput, required: true })
  checkpoints!: PublicCheckpointOutput[];
}

/** A review posted through a link. */
export class PostReviewResponse {
  @Documented({ type: 'string', format: 'uuid', required: true }) id!: string;
}

/** What a tracking page hides or replaces for dropshipped parcels. */
export class DropshipperSettingsOutput {
  @Documented({ type: 'boolean', required: true }) enabled!: boolean;
  @Documented({
    type: 'array',
    items: 'string',
    nullable: true,
    required: true,
    description: 'Carrier codes whose checkpoints are hidden.',
  })
  blacklistCarriers!: string[] | null;
  @Documented(TEXT) originCountryReplacement!: string | null;
  @Documented({ ...TEXT, description: 'Words removed from checkpoints, comma- or line-separated.' })
  stopWords!: string | null;
  @Documented({ type: 'boolean', required: true }) hideHieroglyphs!: boolean;
  @Documented({ type: 'boolean', required: true }) displayPlaceholderCheckpoints!: boolean;
}
