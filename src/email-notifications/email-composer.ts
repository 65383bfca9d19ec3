import { fallbackTemplate } from './default-notifications';
import { htmlToText, renderHtml, renderText, type TemplateValues } from './email-template';

export interface ComposedEmail {
  subject: string;
  html: string;
  text: string;
}

/** The mail of a notification (its templates, or the event's defaults) for these values. */
export function composeEmail(
  notification: { event: string; subject: string | null; body: string | null },
  values: TemplateValues,
): ComposedEmail {
  const fallback = fallbackTemplate(notification.event);
  const subject = renderText(notification.subject?.trim() || fallback.subject, values)
    .replace(/[\r\n]+/g, ' ')
    .trim();
  const html = renderHtml(notification.body?.trim() || fallback.body, values);
  return { subject, html, text: htmlToText(html) };
}
