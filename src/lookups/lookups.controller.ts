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

const DESCRIPTION =
  'Every given criterion (`trackingNumber`, `orderNumber`, `email`, `phoneNumber`) must match; `query` is one value matched against all four. E-mails and tracking numbers compare without case, phone numbers by their national digits. Searches all of the caller\u2019s workspaces, or the one `workspaceId`/`workspace` names (404 when the caller does not see it). Answers a page of the collection, ordered and paged like it (`?page=`, `?itemsPerPage=` and its filters work on the query string). 400 for a non-string criterion, 422 when no usable criterion is given or a phone number has fewer than 6 digits.';

/** `POST /shipments/lookup` and `POST /orders/lookup`: the caller's records matching a search. */
@Controller()
export class LookupsController {
  @Action({
    method: 'POST',
    path: '/shipments/lookup',
    summary: 'Finds shipments by tracking number, order number, e-mail or phone number.',
    description: `${DESCRIPTION} A shipment matches an order number through its \`orderNumbers\`.`,
    input: LookupInput,
    output: { collection: Shipment },
    formats: ['jsonld', 'json'],
    access: 'workspace:read',
    workspace: scopedWorkspace,
  })
  shipments(input: LookupInput, principal: Principal, context: ActionContext): CollectionQuery {
    return lookup('shipments', input, principal, context);
  }

  @Action({
    method: 'POST',
    path: '/orders/lookup',
    summary: 'Finds orders by order number, tracking number, e-mail or phone number.',
    description: `${DESCRIPTION} An order matches a tracking number through its shipments.`,
    input: LookupInput,
    output: { collection: Order },
    formats: ['jsonld', 'json'],
    access: 'workspace:read',
    workspace: scopedWorkspace,
  })
  orders(input: LookupInput, principal: Principal, context: ActionContext): CollectionQuery {
    return lookup('orders', input, principal, context);
  }
}

function lookup(
  entity: LookupEntity,
  input: LookupInput,
  principal: Principal,
  context: ActionContext,
): CollectionQuery {
  const criteria = lookupCriteria({ ...input });
  const workspaceId = context.located[0];
  return {
    scope: workspaceId ? [{ path: 'workspace', id: workspaceId }] : [],
    hooks: {
      scopeCollection: (query) =>
        query.andWhere(lookupCondition(entity, criteria, query, principal.workspaceIds)),
    },
  };
}
