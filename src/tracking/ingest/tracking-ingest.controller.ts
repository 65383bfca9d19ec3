import { Controller } from '@nestjs/common';
import { fromInput, ownersOfInput } from '../../access/access-target';
import type { Principal } from '../../access/principal';
import type { ActionContext } from '../../hydra/actions/action-declaration';
import { Action } from '../../hydra/actions/action.decorator';
import { Shipment } from '../../shipments/shipment.entity';
import { Workspace } from '../../workspaces/workspace.entity';
import type { TargetLocator } from '../../access/access-target';
import { TrackingIngest } from './tracking-ingest';
import { TrackingIngestInput } from './tracking-ingest.input';

/** The shipment's workspace: the one `shipment` belongs to, else the one named beside the number. */
const ingestWorkspace: TargetLocator = (ctx) =>
  typeof ctx.input.shipment === 'string'
    ? ownersOfInput(Shipment, 'shipment')({ ...ctx, input: { shipment: [ctx.input.shipment] } })
    : fromInput(Workspace, 'workspace')(ctx);

/**
 * `POST /tracking/ingest`: a carrier or aggregator pushes checkpoints of one shipment, with the
 * ordinary bearer token of a user (an integration's API client) who may write the shipment's
 * workspace. (Bearer tokens already exist for every client, expire, and are revocable; a
 * second per-workspace HMAC secret would add key management without adding safety.)
 */
@Controller()
export class TrackingIngestController {
  constructor(private readonly ingestion: TrackingIngest) {}

  @Action({
    method: 'POST',
    path: '/tracking/ingest',
    summary: 'Adds checkpoints pushed for one shipment and recomputes it.',
    description:
      'Stores the `checkpoints` of the shipment (by `shipment`, or `trackingNumber` and `workspace`) idempotently and recomputes it like a refresh, in one transaction. Answers the updated shipment.',
    input: TrackingIngestInput,
    output: { item: Shipment },
    formats: ['jsonld', 'json'],
    access: 'workspace:write',
    workspace: ingestWorkspace,
  })
  ingest(input: TrackingIngestInput, principal: Principal, context: ActionContext<'workspace?'>) {
    return this.ingestion.ingest(principal, input, context.workspaceId);
  }
}
