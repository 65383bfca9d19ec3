import { Controller, UseGuards } from '@nestjs/common';
import type { ActionContext } from '../hydra/actions/action-declaration';
import { Action } from '../hydra/actions/action.decorator';
import { typedJson } from '../hydra/actions/action-result';
import { WidgetLookupInput } from './widget-lookup.input';
import { WidgetLookupThrottlerGuard } from './widget-lookup-throttler.guard';
import { WidgetLookupService } from './widget-lookup.service';

/**
 * The embedded side of widgets, without a token (the widget id is public in the store's page).
 */
@Controller()
export class PublicWidgetsController {
  constructor(private readonly lookups: WidgetLookupService) {}

  @Action({
    method: 'GET',
    path: '/public/widgets/:id',
    summary: 'Reads an enabled widget for the store page embedding it.',
    description:
      'Public (no token): the widget id is published in the store\u2019s page. Answers `{id, title, type, options}` of an enabled widget. 404 for an unknown or disabled widget.',
    output: {
      json: {
        type: 'object',
        properties: {
          id: { type: 'string', format: 'uuid' },
          title: { type: 'string' },
          type: { type: 'string', enum: ['tracking_form', 'order_lookup'] },
          options: { type: 'array', items: { type: 'string' } },
        },
      },
    },
    access: 'public',
  })
  async widget(_input: unknown, _principal: unknown, context: ActionContext) {
    const { workspaceId: _workspace, ...widget } = await this.lookups.publicWidget(
      context.params.id,
    );
    return typedJson(context, 'PublicWidget', widget);
  }

  @Action({
    method: 'POST',
    path: '/public/widgets/:id/lookup',
    summary: 'Looks up shipments through a widget, as a store visitor.',
    description:
      'Public (no token). A tracking_form widget takes `trackingNumber`; an order_lookup widget `orderNumber` with the order\u2019s `email`. Answers `{widget, shipments}`: the matching shipments of the widget\u2019s workspace, with the fields its options show, hidden as the workspace\u2019s default tracking page hides them (its dropshipper settings: carriers, origin country, checkpoint texts); every lookup, refused ones included, is written to the widget\u2019s log. Rate-limited per widget and client address (429 with Retry-After). Errors: 404 an unknown or disabled widget; 422 a missing, blank, too long or non-string attribute.',
    input: WidgetLookupInput,
    output: {
      json: {
        type: 'object',
        properties: {
          widget: { type: 'string' },
          shipments: { type: 'array', items: { type: 'object', additionalProperties: true } },
        },
      },
    },
    access: 'public',
  })
  @UseGuards(WidgetLookupThrottlerGuard)
  async lookup(input: WidgetLookupInput, _principal: unknown, context: ActionContext) {
    const result = await this.lookups.lookup(context.params.id, { ...input });
    return typedJson(context, 'WidgetLookup', {
      widget: `/public/widgets/${result.widget.id}`,
      shipments: result.shipments,
    });
  }
}
