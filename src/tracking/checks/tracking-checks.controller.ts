import { Controller } from '@nestjs/common';
import { allOf, ownersOfInput } from '../../access/access-target';
import type { Principal } from '../../access/principal';
import type { ActionContext } from '../../hydra/actions/action-declaration';
import { Action } from '../../hydra/actions/action.decorator';
import { Shipment } from '../../shipments/shipment.entity';
import { scopedWorkspace } from '../../workspaces/workspace-scoped.input';
import { ShipmentLookup } from './shipment-lookup';
import { CheckTrackingNumbersAsyncInput, CheckTrackingNumbersInput } from './tracking-check.input';
import { TrackingChecks } from './tracking-checks';

/** Re-tracking changes the shipments: the caller writes every workspace involved. */
const checkedWorkspaces = allOf(ownersOfInput(Shipment, 'ids'), scopedWorkspace);

const ERRORS =
  'Needs write access to the shipments\u2019 workspace (read-only members: 403). 400 for wrong JSON types; 422 when neither or both forms are given, a list is empty or too long, `workspaceId` is missing with `trackingNumbers`, or a tracking number is unknown in the workspace (at `trackingNumbers[i]`); 404 for a shipment or workspace the caller does not see.';

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
    description: `Asks the carriers now (within the request) and answers the shipment (one named) or a collection of them (several), in the given order. ${ERRORS}`,
    input: CheckTrackingNumbersInput,
    output: { collection: Shipment },
    formats: ['jsonld', 'json'],
    access: 'workspace:write',
    workspace: checkedWorkspaces,
  })
  async check(input: CheckTrackingNumbersInput, principal: Principal, context: ActionContext) {
    const ids = await this.lookup.named(principal, input, context.located[0]);
    await this.checks.checkNow(ids);
    return ids.length === 1 ? ids[0] : ids;
  }

  @Action({
    method: 'POST',
    path: '/check_tracking_numbers_async',
    summary: 'Re-tracks up to 5000 shipments in the background.',
    description: `Answers at once \`{queued, job, shipments}\`; a durable job re-tracks the shipments and tells the caller with a notification (tag \`check_tracking_numbers\`, \`data\` = the shipment IRIs). ${ERRORS}`,
    input: CheckTrackingNumbersAsyncInput,
    output: {
      json: {
        type: 'object',
        properties: {
          queued: { type: 'boolean' },
          job: { type: 'string', nullable: true },
          shipments: { type: 'array', items: { type: 'string', format: 'iri-reference' } },
        },
      },
    },
    access: 'workspace:write',
    workspace: checkedWorkspaces,
  })
  async checkAsync(
    input: CheckTrackingNumbersAsyncInput,
    principal: Principal,
    context: ActionContext,
  ) {
    const ids = await this.lookup.named(principal, input, context.located[0]);
    const job = await this.checks.checkLater(principal.userId, ids);
    return { queued: true, job, shipments: ids.map((id) => `/shipments/${id}`) };
  }
}
