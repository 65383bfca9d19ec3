import type { AppConfig } from '../config/app-config';
import { link } from '../mail/links';
import type { MailMessage } from '../mail/mailer';
import { USER_TOKEN_LIFETIME } from './user-tokens';

/** The account e-mails: plain text, with the code and, where a page exists, a link. */
export const accountMails = {
  verification(config: AppConfig, to: string, code: string): MailMessage {
    return {
      to,
      subject: 'Verify your e-mail address',
      text:
        `Welcome! Confirm your e-mail address to finish creating your account.\n\n` +
        `Verification code: ${code}\n\n` +
        `Or open this link: ${link(config, '/security/verify-email', { code })}\n\n` +
        `The code is valid for ${USER_TOKEN_LIFETIME.verify_email / 3600} hours and can be used once.\n` +
        `If you did not sign up, ignore this message.\n`,
    };
  },

  alreadyRegistered(config: AppConfig, to: string): MailMessage {
    return {
      to,
      subject: 'Sign-up attempt with your e-mail address',
      text:
        `Someone tried to create an account with this address, which already has one.\n\n` +
        `If it was you, sign in at ${link(config, '/')}; if you forgot your password, ask for a ` +
        `reset code (POST /security/forgot-password/send-email).\n` +
        `If it was not you, ignore this message: nothing was changed.\n`,
    };
  },

  passwordReset(config: AppConfig, to: string, code: string): MailMessage {
    return {
      to,
      subject: 'Reset your password',
      text:
        `A password reset was requested for your account.\n\n` +
        `Reset code: ${code}\n\n` +
        `Send it with your new password (POST ${link(config, '/security/forgot-password/reset')} ` +
        `with "code" and "newPassword"). It is valid for ${USER_TOKEN_LIFETIME.reset_password / 60} ` +
        `minutes and can be used once.\nIf you did not ask for this, ignore this message.\n`,
    };
  },
};
