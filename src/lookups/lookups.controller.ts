import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { Access } from '../access/access.decorator';
import type { Request, Response } from 'express';
import { HydraApi } from '../hydra/controller/hydra-api';
import { QueryParams } from '../hydra/query/query-params';
import { Order } from '../orders/order.entity';
import { Shipment } from '../shipments/shipment.entity';
import { type LookupEntity, lookupCondition } from './lookup-conditions';
import { lookupCriteria } from './lookup-criteria';
import { optionalWorkspace } from './request-fields';

/**
 * `POST /shipments/lookup` and `POST /orders/lookup`: the caller's shipments or orders
 * matching a tracking number, an order number, an e-mail or a phone number, in all of the
 * caller's workspaces or in one (`workspaceId` / `workspace`).
 *
 * Body: `{"trackingNumber"?, "orderNumber"?, "email"?, "phoneNumber"?, "query"?, "workspaceId"?}`.
 * Every given criterion must match; `query` is one value matched against all four (what a
 * support agent pastes into a search box). E-mails and tracking numbers compare without
 * case; phone numbers compare by their national digits, whatever the formatting. An order
 * matches a tracking number through its shipments, a shipment an order number through its
 * `orderNumbers`.
 *
 * The answer is the collection of matches (JSON-LD envelope, a bare array in JSON), paged
 * and ordered like the resource's collection: `?page=`, `?itemsPerPage=` and the
 * collection's filters work on the query string.
 */
// Authenticated; the handlers check the rest until they are declared actions.
@Access('user')
@Controller()
export class LookupsController {
  constructor(private readonly api: HydraApi) {}

  @Post('/shipments/lookup')
  @HttpCode(200)
  shipments(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.lookup(Shipment, 'shipments', req, res);
  }

  @Post('/orders/lookup')
  @HttpCode(200)
  orders(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.lookup(Order, 'orders', req, res);
  }

  private async lookup(
    target: Function,
    entity: LookupEntity,
    req: Request,
    res: Response,
  ): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const principal = this.api.requirePrincipal(req);
    const body = this.api.body(req);
    const criteria = lookupCriteria(body);
    const workspaceId = await optionalWorkspace(this.api, principal, body);
    const resource = this.api.resource(target);
    const result = await this.api.data.list({
      resource,
      principal,
      params: QueryParams.fromUrl(req.originalUrl),
      scope: workspaceId ? [{ path: 'workspace', id: workspaceId }] : [],
      hooks: {
        scopeCollection: (query) =>
          query.andWhere(lookupCondition(entity, criteria, query, principal.workspaceIds)),
      },
      request: req,
    });
    this.api.responder.collection(req, res, resource, result);
  }
}
