/** One outgoing e-mail. `text` is required; `html` is an optional alternative. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/**
 * The port every feature sends mail through (account e-mails, invitations, e-mail
 * notifications). Inject with `@Inject(MAILER) mailer: Mailer`.
 */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export const MAILER = Symbol('Mailer');
