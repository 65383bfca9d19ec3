import { Controller, Get, HttpCode, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Public } from '../access/public.decorator';
import { HydraApi } from '../hydra/controller/hydra-api';
import { sendAction } from '../tracking-pages/action-response';
import { WidgetLookupThrottlerGuard } from './widget-lookup-throttler.guard';
import { WidgetLookupService } from './widget-lookup.service';

/**
 * The embedded side of widgets, without a token (the widget id is public in the store's page):
 * `GET /public/widgets/{id}` (title, type, options of an enabled widget) and
 * `POST /public/widgets/{id}/lookup` (`trackingNumber`, or `orderNumber` + `email`), answered
 * with the matching shipments as the widget's options allow and written to its log.
 */
@Public()
@Controller()
export class PublicWidgetsController {
  constructor(
    private readonly api: HydraApi,
    private readonly lookups: WidgetLookupService,
  ) {}

  @Get('/public/widgets/:id')
  async widget(@Param('id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const { workspaceId: _workspace, ...widget } = await this.lookups.publicWidget(id);
    sendAction(this.api.responder, req, res, 'PublicWidget', widget);
  }

  @Post('/public/widgets/:id/lookup')
  @HttpCode(200)
  @UseGuards(WidgetLookupThrottlerGuard)
  async lookup(@Param('id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const body = this.api.body(req);
    const result = await this.lookups.lookup(id, body);
    sendAction(this.api.responder, req, res, 'WidgetLookup', {
      widget: `/public/widgets/${result.widget.id}`,
      shipments: result.shipments,
    });
  }
}
