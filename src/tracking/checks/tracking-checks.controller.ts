import { Controller } from '@nestjs/common';
import { allOf, ownersOfInput } from '../../access/access-target';
import type { Principal } from '../../access/principal';
import type { ActionContext } from '../../hydra/actions/action-declaration';
import { Action } from '../../hydra/actions/action.decorator';
import { Shipment } from '../../shipments/shipment.entity';
import { scopedWorkspace } from '../../workspaces/workspace-scoped.input';
import { ShipmentLookup } from './shipment-lookup';
import { CheckTrackingNumbersAsyncInput, CheckTrackingNumbersInput } from './tracking-check.input';
import { TrackingCheckQueued } from './tracking-check.output';
import { TrackingChecks } from './tracking-checks';

/** Re-tracking changes the shipments: the caller writes every workspace involved. */
const checkedWorkspaces = allOf(ownersOfInput(Shipment, 'ids'), scopedWorkspace);

/**
 * `POST /check_tracking_numbers` and `/check_tracking_numbers_async`: re-track shipments named
 * by `ids`, or by `trackingNumbers` of the workspace `workspaceId` (the reference's request).
 */
@Controller()
export class TrackingChecksController {
  constructor(
    private readonly lookup: ShipmentLookup,
    private readonly checks: TrackingChecks,
  ) {}

  @Action({
    method: 'POST',
    path: '/check_tracking_numbers',
    summary: 'Re-tracks up to 100 shipments now and answers them.',
    description:
      'Asks the carriers now and answers the shipment (one named) or a collection of them, in the given order. Shipments are named by `ids`, or by `trackingNumbers` of `workspaceId`.',
    input: CheckTrackingNumbersInput,
    output: { collection: Shipment },
    formats: ['jsonld', 'json'],
    access: 'workspace:write',
    workspace: checkedWorkspaces,
  })
  async check(
    input: CheckTrackingNumbersInput,
    principal: Principal,
    context: ActionContext<'workspace?'>,
  ) {
    const ids = await this.lookup.named(principal, input, context.workspaceId);
    await this.checks.checkNow(ids);
    return ids.length === 1 ? ids[0] : ids;
  }

  @Action({
    method: 'POST',
    path: '/check_tracking_numbers_async',
    summary: 'Re-tracks up to 5000 shipments in the background.',
    description:
      'Answers `{queued, job, shipments}` at once; a job re-tracks the shipments and notifies the caller (tag `check_tracking_numbers`). Shipments are named by `ids`, or by `trackingNumbers` of `workspaceId`.',
    input: CheckTrackingNumbersAsyncInput,
    output: { json: TrackingCheckQueued },
    access: 'workspace:write',
    workspace: checkedWorkspaces,
  })
  async checkAsync(
    input: CheckTrackingNumbersAsyncInput,
    principal: Principal,
    context: ActionContext<'workspace?'>,
  ) {
    const ids = await this.lookup.named(principal, input, context.workspaceId);
    const job = await this.checks.checkLater(principal.userId, ids);
    return { queued: true, job, shipments: ids.map((id) => `/shipments/${id}`) };
  }
}
