import type { AppConfig } from '../config/app-config';
import { link } from '../mail/links';
import type { MailMessage } from '../mail/mailer';
import { USER_TOKEN_LIFETIME } from '../security/user-tokens';

/** The storefront sign-up's e-mails: plain text, naming the shop so the reader knows why. */
export const storefrontMails = {
  /** A new address: the code that proves it and finishes the registration. */
  verification(config: AppConfig, to: string, shopName: string, code: string): MailMessage {
    return {
      to,
      subject: 'Verify your e-mail address to finish your registration',
      text:
        `The shop "${shopName}" was registered with this address from the storefront app.\n\n` +
        `Verification code: ${code}\n\n` +
        `Or open this link: ${link(config, '/security/verify-email', { code })}\n\n` +
        `Confirming signs you in to its workspace with the password chosen at registration. ` +
        `The code is valid for ${USER_TOKEN_LIFETIME.verify_email / 3600} hours and can be used once.\n` +
        `If you did not register this shop, ignore this message.\n`,
    };
  },

  /** A known address: nothing was created; its owner links the shop from their account. */
  alreadyRegistered(config: AppConfig, to: string, shopName: string): MailMessage {
    return {
      to,
      subject: 'Storefront registration with your e-mail address',
      text:
        `Someone tried to register the shop "${shopName}" from the storefront app with this ` +
        `address, which already has an account.\n\n` +
        `If it was you, sign in at ${link(config, '/')} and link the shop from your workspace; ` +
        `if you forgot your password, ask for a reset code (POST /security/forgot-password/send-email).\n` +
        `If it was not you, ignore this message: nothing was changed.\n`,
    };
  },
};
