import { Injectable } from '@nestjs/common';
import type { NestedElement, WriteContext } from '../hydra/core/resource-hooks';
import {
  ExtendsShipmentWrites,
  type ShipmentWriteExtension,
} from '../shipments/shipment-write-extensions';
import { ShipmentItemsService } from './shipment-items.service';

/**
 * Writes the shipment items a shipment's POST or PUT gives as objects (`shipmentItems`), after
 * the shipment is saved, in its transaction, through the shipment item rules.
 */
@Injectable()
@ExtendsShipmentWrites()
export class NestedShipmentItems implements ShipmentWriteExtension {
  constructor(private readonly items: ShipmentItemsService) {}

  writeNestedItems(shipmentId: string, elements: NestedElement[], ctx: WriteContext) {
    return this.items.writeNested(shipmentId, elements, ctx);
  }
}
