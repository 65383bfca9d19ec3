const escape = (value: unknown): string =>
  String(value ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const label = (status: unknown) => escape(String(status ?? 'unknown').replace(/_/g, ' '));

/**
 * A minimal, dependency-free page for a tracking link: tracking number, status and
 * checkpoints. Every value is escaped; no script runs. Rich pages are the front end's job,
 * built from the JSON at /public/tracking_page_links/{hash}.
 */
export function trackingPageHtml(view: Record<string, any>): string {
  const page = view.trackingPage ?? {};
  const shipment = view.shipment ?? {};
  const checkpoints: Array<Record<string, unknown>> = view.checkpoints ?? [];
  const rows = checkpoints
    .map(
      (c) =>
        `<li><time>${escape(c.checkpointDate)}</time> <strong>${label(c.status)}</strong>` +
        `${c.info ? ` ${escape(c.info)}` : ''}${c.location ? ` <em>${escape(c.location)}</em>` : ''}</li>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escape(page.title || 'Track your order')}</title></head>
<body>
<h1>${escape(page.title || 'Track your order')}</h1>
<p>Tracking number: <strong>${escape(shipment.trackingNumber)}</strong></p>
<p>Status: <strong>${label(shipment.trackingStatus)}</strong>${shipment.originCarrier ? ` (${escape(shipment.originCarrier)})` : ''}</p>
${shipment.expectedDeliveryDate ? `<p>Expected delivery: ${escape(shipment.expectedDeliveryDate)}</p>` : ''}
<ol>
${rows || '<li>No tracking information yet.</li>'}
</ol>
</body></html>
`;
}
