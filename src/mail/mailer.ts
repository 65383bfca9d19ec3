/** One outgoing e-mail. `text` is required; `html` is an optional alternative. */
export interface MailMessage {
  to: string;
  /** Copies: one message, listed in the Cc header. */
  cc?: string[];
  /** Blind copies: envelope recipients of the same message, never in its headers. */
  bcc?: string[];
  subject: string;
  text: string;
  html?: string;
}

/** What the mail server did with a message's recipients (when the transport tells). */
export interface MailReceipt {
  accepted: string[];
  /** Recipients the server refused while taking the message for the others. */
  rejected: string[];
}

/**
 * The port every feature sends mail through (account e-mails, invitations, e-mail
 * notifications). Inject with `@Inject(MAILER) mailer: Mailer`.
 */
export interface Mailer {
  send(message: MailMessage): Promise<MailReceipt | void>;
}

export const MAILER = Symbol('Mailer');
