import { Allow } from 'class-validator';

/**
 * `POST /public/widgets/{id}/lookup`: what a visitor asks. Which attributes are needed depends
 * on the widget's type, so they are checked (and refusals logged) by `parseLookup`, not here.
 */
export class WidgetLookupInput {
  /** A tracking number (tracking_form widgets). */
  @Allow() trackingNumber?: unknown;
  /** An order number, with the order's e-mail (order_lookup widgets). */
  @Allow() orderNumber?: unknown;
  @Allow() email?: unknown;
}
