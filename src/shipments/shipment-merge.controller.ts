import { Controller } from '@nestjs/common';
import { allOf, ownersOfInput } from '../access/access-target';
import type { Principal } from '../access/principal';
import { Action } from '../hydra/actions/action.decorator';
import { ShipmentMerge } from './shipment-merge';
import { MergeShipmentsInput } from './shipment-merge.input';
import { mergeRequest } from './shipment-merge-request';
import { Shipment } from './shipment.entity';

/** `POST /shipments/merge`: duplicates folded into one shipment (ShipmentMerge). */
@Controller()
export class ShipmentMergeController {
  constructor(private readonly merger: ShipmentMerge) {}

  @Action({
    method: 'POST',
    path: '/shipments/merge',
    summary: 'Merges duplicate shipments into one.',
    description:
      'Folds the `shipments` (ids or IRIs) into `target`: their items, checkpoints and order numbers move to it and they are deleted. Answers the merged shipment.',
    input: MergeShipmentsInput,
    output: { item: Shipment },
    access: 'workspace:write',
    workspace: allOf(ownersOfInput(Shipment, 'shipments'), async (ctx) =>
      ctx.targets.ownersOf(Shipment, [String(ctx.input.target)], 'workspace'),
    ),
  })
  async merge(input: MergeShipmentsInput, principal: Principal) {
    const request = mergeRequest({ ...input });
    await this.merger.merge(principal, request);
    return request.target;
  }
}
