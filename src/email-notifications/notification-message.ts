import type { MailMessage } from '../mail/mailer';
import type { ComposedEmail } from './email-composer';

/** The To header of a message that has only copies (RFC 5322 empty group, as mail clients do). */
export const UNDISCLOSED_RECIPIENTS = 'undisclosed-recipients:;';

export interface NotificationRecipients {
  /** The shipment's customer address, when it has one. */
  to: string | null;
  cc: string[];
  bcc: string[];
}

/**
 * Who one notification goes to: the customer in To, the notification's `cc` in Cc and its
 * `bcc` as blind copies. An address listed more than once (case aside) keeps only its most
 * visible role (To, then Cc, then Bcc) and its first spelling, so nobody gets two copies.
 */
export function notificationRecipients(
  customer: string | null | undefined,
  cc: readonly string[],
  bcc: readonly string[],
): NotificationRecipients {
  const seen = new Set<string>();
  const take = (address: string | null | undefined): boolean => {
    const trimmed = address?.trim();
    if (!trimmed || seen.has(trimmed.toLowerCase())) return false;
    seen.add(trimmed.toLowerCase());
    return true;
  };
  const to = take(customer) ? customer!.trim() : null;
  return {
    to,
    cc: cc.filter(take).map((a) => a.trim()),
    bcc: bcc.filter(take).map((a) => a.trim()),
  };
}

/** Every address the message goes to, To first. */
export function allRecipients(recipients: NotificationRecipients): string[] {
  return [...(recipients.to ? [recipients.to] : []), ...recipients.cc, ...recipients.bcc];
}

/**
 * The one message of a notification: To the customer (an empty group when there is none),
 * Cc and Bcc as given. The transport puts every address in the envelope and leaves Bcc out of
 * the headers, so blind copies stay blind.
 */
export function notificationMessage(
  recipients: NotificationRecipients,
  mail: ComposedEmail,
): MailMessage {
  return {
    to: recipients.to ?? UNDISCLOSED_RECIPIENTS,
    ...(recipients.cc.length ? { cc: recipients.cc } : {}),
    ...(recipients.bcc.length ? { bcc: recipients.bcc } : {}),
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
  };
}
