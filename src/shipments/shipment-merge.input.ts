import { Expose, Transform } from 'class-transformer';
import { ValidateIf } from 'class-validator';
import { MaxLength, MinCount, NotBlank, Present } from '../hydra/validation/constraints';
import { Typed } from '../hydra/validation/input-types';

/**
 * The store plugin's form `{workspaceId, shipmentId, trackingNumber}` read as `{target,
 * shipments: []}` plus the number. class-transformer runs no transform for an attribute the
 * body leaves out, so `shipmentId`'s fills them in the body before they are read (the body's
 * own attributes come first, the exposed `target` and `shipments` after).
 */
const pluginForm = ({ value, obj }: { value: unknown; obj: Record<string, unknown> }) => {
  if (obj.target === undefined) obj.target = value;
  if (obj.shipments === undefined && obj.trackingNumber != null) obj.shipments = [];
  return value;
};

/**
 * `POST /shipments/merge`: the shipment to keep and its duplicates, `{target, shipments}`; or,
 * as the WooCommerce plugin sends it after a duplicate tracking number was refused,
 * `{workspaceId, shipmentId, trackingNumber}`: the shipments of the workspace carrying that
 * number are folded into `shipmentId`, which then takes the number.
 */
export class MergeShipmentsInput {
  /** Id or IRI of the shipment that stays (`shipmentId` in the plugin's form). */
  // Exposed: read after the body's attributes, once `shipmentId` has filled it in.
  @Expose() @Typed('string') @NotBlank() target!: string;
  /** Ids or IRIs of the duplicates folded into it. */
  @Expose()
  @Typed('string', { each: true })
  @Present()
  @ValidateIf((input: MergeShipmentsInput) => input.trackingNumber == null)
  @MinCount(1)
  shipments!: string[];
  /** The plugin's form: the duplicates are the other shipments with this number. */
  @Typed('string') @MaxLength(255) trackingNumber?: string | null;
  /** The plugin's form: the shipment being edited, which stays (becomes `target`). */
  @Transform(pluginForm) @Typed('string') shipmentId?: string | null;
  /** The plugin's form: the workspace of the shipments (id or IRI). */
  @Typed('string') workspaceId?: string | null;
}
