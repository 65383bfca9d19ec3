import { emailDocument } from '../common/page-layout/email-layout';
import { fallbackTemplate } from './default-notifications';
import { htmlToText, renderHtml, renderText, type TemplateValues } from './email-template';

export interface ComposedEmail {
  subject: string;
  html: string;
  text: string;
}

/**
 * The mail of a notification (its templates, or the event's defaults) for these values. The
 * HTML body is framed in the look of the tracking page (src/common/page-layout), headed with
 * the workspace's title; the text part is the body's own text.
 */
export function composeEmail(
  notification: { event: string; subject: string | null; body: string | null },
  values: TemplateValues,
): ComposedEmail {
  const fallback = fallbackTemplate(notification.event);
  const subject = renderText(notification.subject?.trim() || fallback.subject, values)
    .replace(/[\r\n]+/g, ' ')
    .trim();
  const body = renderHtml(notification.body?.trim() || fallback.body, values);
  return {
    subject,
    html: emailDocument(body, { title: values.workspaceTitle }),
    text: htmlToText(body),
  };
}
