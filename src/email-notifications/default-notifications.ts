import { PAGE_TOKENS } from '../common/page-layout/page-style';

/** What a workspace gets from POST /email_notifications/reset_defaults: one per main status. */
export interface DefaultNotification {
  event: string;
  title: string;
  subject: string;
  body: string;
}

/** The tracking page's button, inline (mail clients drop style sheets). */
const BUTTON =
  `display:inline-block;padding:10px 18px;border-radius:8px;background:${PAGE_TOKENS.accent};` +
  'color:#ffffff;font-weight:600;text-decoration:none';

const body = (lead: string) =>
  `<p>Hello {{firstName}},</p>\n<p>${lead}</p>\n` +
  `<p>Tracking number: {{trackingNumber}} ({{originCarrier}})</p>\n` +
  `<p><a href="{{trackingUrl}}" style="${BUTTON}">Track your parcel</a></p>\n<p>{{workspaceTitle}}</p>`;

export const DEFAULT_NOTIFICATIONS: readonly DefaultNotification[] = [
  {
    event: 'shipment.in_transit',
    title: 'In transit',
    subject: 'Your order is on its way',
    body: body('Your parcel is on its way.'),
  },
  {
    event: 'shipment.delivery_in_progress',
    title: 'Out for delivery',
    subject: 'Your parcel is out for delivery',
    body: body('Your parcel is out for delivery and should arrive today.'),
  },
  {
    event: 'shipment.available_for_pickup',
    title: 'Available for pickup',
    subject: 'Your parcel is ready for pickup',
    body: body('Your parcel is waiting for you at the carrier’s pickup point.'),
  },
  {
    event: 'shipment.unsuccessful_delivery',
    title: 'Delivery attempt failed',
    subject: 'We could not deliver your parcel',
    body: body(
      'The carrier tried to deliver your parcel but could not; a new attempt usually follows.',
    ),
  },
  {
    event: 'shipment.error',
    title: 'Delivery exception',
    subject: 'There is a problem with your parcel',
    body: body('The carrier reported a problem with your parcel.'),
  },
  {
    event: 'shipment.return_to_sender',
    title: 'Returned to sender',
    subject: 'Your parcel is being returned',
    body: body('Your parcel could not be delivered and is on its way back to us.'),
  },
  {
    event: 'shipment.delivered',
    title: 'Delivered',
    subject: 'Your parcel has been delivered',
    body: body('Your parcel has been delivered. Enjoy!'),
  },
];

/** Subject and body used when a notification leaves them empty. */
export function fallbackTemplate(event: string): { subject: string; body: string } {
  const known = DEFAULT_NOTIFICATIONS.find((d) => d.event === event);
  if (known) return { subject: known.subject, body: known.body };
  return {
    subject: 'Update on your parcel {{trackingNumber}}: {{trackingStatusTitle}}',
    body: body('There is news about your parcel: {{trackingStatusTitle}}.'),
  };
}
