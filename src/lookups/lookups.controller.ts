import { Controller } from '@nestjs/common';
import type { Principal } from '../access/principal';
import type { ActionContext } from '../hydra/actions/action-declaration';
import { Action } from '../hydra/actions/action.decorator';
import type { CollectionQuery } from '../hydra/actions/action-result';
import { Order } from '../orders/order.entity';
import { Shipment } from '../shipments/shipment.entity';
import { scopedWorkspace } from '../workspaces/workspace-scoped.input';
import { type LookupEntity, lookupCondition } from './lookup-conditions';
import { lookupCriteria } from './lookup-criteria';
import { LookupInput } from './lookup.input';

/** `POST /shipments/lookup` and `POST /orders/lookup`: the caller's records matching a search. */
@Controller()
export class LookupsController {
  @Action({
    method: 'POST',
    path: '/shipments/lookup',
    summary: 'Finds shipments by tracking number, order number, e-mail or phone number.',
    description:
      'Every given criterion (`trackingNumber`, `orderNumber`, `email`, `phoneNumber`; `query` matches any) must match, in the caller’s workspaces or the one `workspaceId` names. Answers a page of the collection, ordered, paged and filtered like it.',
    input: LookupInput,
    output: { collection: Shipment },
    formats: ['jsonld', 'json'],
    access: 'workspace:read',
    workspace: scopedWorkspace,
  })
  shipments(
    input: LookupInput,
    principal: Principal,
    context: ActionContext<'workspace?'>,
  ): CollectionQuery {
    return lookup('shipments', input, principal, context);
  }

  @Action({
    method: 'POST',
    path: '/orders/lookup',
    summary: 'Finds orders by order number, tracking number, e-mail or phone number.',
    description:
      'Every given criterion (`trackingNumber`, `orderNumber`, `email`, `phoneNumber`; `query` matches any) must match, in the caller’s workspaces or the one `workspaceId` names. Answers a page of the collection, ordered, paged and filtered like it.',
    input: LookupInput,
    output: { collection: Order },
    formats: ['jsonld', 'json'],
    access: 'workspace:read',
    workspace: scopedWorkspace,
  })
  orders(
    input: LookupInput,
    principal: Principal,
    context: ActionContext<'workspace?'>,
  ): CollectionQuery {
    return lookup('orders', input, principal, context);
  }
}

function lookup(
  entity: LookupEntity,
  input: LookupInput,
  principal: Principal,
  context: ActionContext<'workspace?'>,
): CollectionQuery {
  const criteria = lookupCriteria({ ...input });
  const workspaceId = context.workspaceId;
  return {
    scope: workspaceId ? [{ path: 'workspace', id: workspaceId }] : [],
    hooks: {
      scopeCollection: (query) =>
        query.andWhere(lookupCondition(entity, criteria, query, principal.workspaceIds)),
    },
  };
}
