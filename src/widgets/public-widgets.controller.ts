import { Controller, UseGuards } from '@nestjs/common';
import type { ActionContext } from '../hydra/actions/action-declaration';
import { Action } from '../hydra/actions/action.decorator';
import { typedJson } from '../hydra/actions/action-result';
import { PublicWidgetOutput, WidgetLookup } from './public-widgets.output';
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
      'Answers `{id, title, type, options}` of an enabled widget, without a token: the widget id is published in the store’s page.',
    output: { json: PublicWidgetOutput },
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
      'Answers the shipments of the widget’s workspace matching `trackingNumber` (tracking_form) or `orderNumber` and `email` (order_lookup), with the fields its options show, hidden as the workspace’s default tracking page hides them. Every lookup is logged, within a budget per widget and client address.',
    input: WidgetLookupInput,
    output: { json: WidgetLookup },
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
