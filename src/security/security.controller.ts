import { Controller } from '@nestjs/common';
import type { Principal } from '../access/principal';
import { errorPage } from '../auth/authorization-page';
import type { ActionContext } from '../hydra/actions/action-declaration';
import { Action } from '../hydra/actions/action.decorator';
import { PageAnswer, type HtmlPage } from '../hydra/actions/action-result';
import { ValidationError, ViolationCodes } from '../common/errors/api-errors';
import { User } from '../users/user.entity';
import { UserView } from '../users/user-view';
import { readNewPassword } from '../users/password-policy';
import { AccountService } from './account.service';
import { AccountThrottle } from './account-throttle';
import { readString, requireEmail, requireString } from './body-fields';
import {
  EmailInput,
  LookupTeamNameInput,
  ResetPasswordInput,
  SignupInput,
  VerifyEmailInput,
  VerifyEmailLinkInput,
} from './security.input';
import { verifyEmailPage, verifiedPage } from './verify-email-page';

const JSON_OUT = { json: { type: 'object', additionalProperties: true } } as const;
const EMAIL_OUT = {
  json: { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] },
} as const;

/** `{user, token}` of an account signed in at once. */
const SIGNED_IN = {
  type: 'object',
  properties: {
    user: { type: 'object', additionalProperties: true },
    token: { type: 'object', additionalProperties: true },
  },
};

const PAGE_HEADERS = {
  'Cache-Control': 'no-store',
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
};

const BUDGET =
  'Within a budget per client address and per e-mail address (429 with Retry-After beyond it; a malformed request spends nothing).';

/**
 * Public account endpoints (spec "Users and security"). Bodies are JSON (or forms);
 * answers JSON-LD or JSON. Where an answer could tell whether an address has an account,
 * it is the same either way and the e-mail tells its owner.
 */
@Controller()
export class SecurityController {
  constructor(
    private readonly accounts: AccountService,
    private readonly users: UserView,
    private readonly throttle: AccountThrottle,
  ) {}

  @Action({
    method: 'POST',
    path: '/security/signup',
    summary: 'Creates an account.',
    description: `Public. Body \`{email, password?, invitationCode?, firstName?, lastName?}\`. With a valid invitation code the account is ready at once: answers \`{user, token}\`. Without one the account waits for e-mail verification: \`user\` shows only the address, \`token\` is null and a code is mailed, whether or not the address was known (its owner is told instead). 422 for a blank or invalid address, a weak password, names over 255 characters or an unknown invitation; 400 for wrong types. ${BUDGET}`,
    input: SignupInput,
    output: JSON_OUT,
    access: 'public',
  })
  async signup(input: SignupInput, _principal: Principal | null, context: ActionContext) {
    const body = input as Record<string, unknown>;
    const email = requireEmail(body);
    const password = readNewPassword(input.password ?? input.plainPassword, 'password');
    const invitationCode = readString(body, 'invitationCode')?.trim() || null;
    const firstName = optionalName(body, 'firstName');
    const lastName = optionalName(body, 'lastName');
    await this.throttle.spend('signup', context.ip, email);
    const ready = await this.accounts.signup({
      email,
      password,
      invitationCode,
      firstName,
      lastName,
    });
    if (ready) {
      const user = await this.users.embeddedAs(context.format, ready.userId);
      return { user, token: ready.token };
    }
    return {
      user: { '@type': 'User', email, emailVerified: false },
      token: null,
      message: 'Check your inbox: we sent a code to verify this address.',
    };
  }

  @Action({
    method: 'GET',
    path: '/security/verify-email',
    summary: 'Shows the page of the verification link.',
    description:
      'Public: the link of the verification e-mail (`?code=`). An HTML page whose button posts the code to `POST /security/verify-email`, so link scanners that fetch every URL of a mail do not spend it. 400 (an HTML page) when the link has no code. Never cached.',
    input: VerifyEmailLinkInput,
    output: { html: true },
    access: 'public',
  })
  verifyEmailForm(input: VerifyEmailLinkInput): HtmlPage {
    if (!input.code)
      return {
        html: errorPage('Invalid link', 'The link has no code.'),
        status: 400,
        headers: PAGE_HEADERS,
      };
    return { html: verifyEmailPage(input.code), headers: PAGE_HEADERS };
  }

  /**
   * `{code}` -> 201 `{user, token}`: verified, and signed in at once. The page's form (a
   * browser posting it and asking for HTML) gets a page saying so instead.
   */
  @Action({
    method: 'POST',
    path: '/security/verify-email',
    summary: 'Verifies an e-mail address with its code.',
    description: `Public. Body \`{code}\` (JSON, or the verification page\u2019s form). Marks the address verified and signs the user in: answers \`{user, token}\` (201); the page\u2019s form (Accept: text/html) gets a page saying so (200). 422 for a blank, unknown, used or expired code. ${BUDGET}`,
    input: VerifyEmailInput,
    form: { formats: ['jsonld', 'json', 'html'] },
    output: { oneOf: { json: SIGNED_IN, html: true } },
    status: 201,
    responses: {
      201: {
        description: 'Verified and signed in.',
        content: {
          'application/ld+json': { schema: SIGNED_IN },
          'application/json': { schema: SIGNED_IN },
        },
      },
      200: {
        description: 'The page\u2019s form: a page saying the address is verified.',
        content: { 'text/html': { schema: { type: 'string' } } },
      },
    },
    access: 'public',
  })
  async verifyEmail(input: VerifyEmailInput, _principal: Principal | null, context: ActionContext) {
    await this.throttle.spend('verify-email', context.ip);
    const ready = await this.accounts.verifyEmail(input.code);
    // HTML is offered to form posts only (`form.formats`).
    if (context.format === 'html') return new PageAnswer({ html: verifiedPage(), status: 200 });
    const user = await this.users.embeddedAs(context.format, ready.userId);
    return { user, token: ready.token };
  }

  @Action({
    method: 'POST',
    path: '/security/resend-email',
    summary: 'Sends a new verification code.',
    description: `Public. Body \`{email}\`. A new code goes out if the address awaits verification; the answer \`{email}\` (201) is the same either way, so it tells nobody whether the address has an account. 422 for a blank or invalid address. ${BUDGET}`,
    input: EmailInput,
    output: EMAIL_OUT,
    status: 201,
    access: 'public',
  })
  async resendEmail(input: EmailInput, _principal: Principal | null, context: ActionContext) {
    const email = requireEmail(input as Record<string, unknown>);
    await this.throttle.spend('resend-email', context.ip, email);
    await this.accounts.resendVerification(email);
    return { email };
  }

  @Action({
    method: 'POST',
    path: '/security/forgot-password/send-email',
    summary: 'Mails a password reset code.',
    description: `Public. Body \`{email}\`. A reset code goes out if the address has an account; the answer \`{email}\` (201) is the same either way. 422 for a blank or invalid address. ${BUDGET}`,
    input: EmailInput,
    output: EMAIL_OUT,
    status: 201,
    access: 'public',
  })
  async forgotPassword(input: EmailInput, _principal: Principal | null, context: ActionContext) {
    const email = requireEmail(input as Record<string, unknown>);
    await this.throttle.spend('forgot-password', context.ip, email);
    await this.accounts.sendPasswordReset(email);
    return { email };
  }

  @Action({
    method: 'POST',
    path: '/security/forgot-password/reset',
    summary: 'Sets a new password with a reset code.',
    description: `Public. Body \`{code, newPassword}\`. Sets the password and answers the user; tokens issued before stop working. 422 for a blank, unknown, used or expired code or a weak password; 400 for wrong types. ${BUDGET}`,
    input: ResetPasswordInput,
    output: { item: User },
    access: 'public',
  })
  async resetPassword(
    input: ResetPasswordInput,
    _principal: Principal | null,
    context: ActionContext,
  ) {
    const body = input as Record<string, unknown>;
    const code = requireString(body, 'code').trim();
    requireString(body, 'newPassword');
    const password = readNewPassword(input.newPassword, 'newPassword')!;
    await this.throttle.spend('reset-password', context.ip);
    const userId = await this.accounts.resetPassword(code, password);
    return this.users.record(userId);
  }

  @Action({
    method: 'POST',
    path: '/security/lookup-team-name',
    summary: 'Names the team of an invitation.',
    description: `Public. Body \`{email, code}\` of an invitation; answers \`{email, code, teamName}\` so the sign-up form can show which team the user joins. 422 for a blank or invalid address or code, or an invitation that does not match. ${BUDGET}`,
    input: LookupTeamNameInput,
    output: JSON_OUT,
    access: 'public',
  })
  async lookupTeamName(
    input: LookupTeamNameInput,
    _principal: Principal | null,
    context: ActionContext,
  ) {
    const body = input as Record<string, unknown>;
    const email = requireEmail(body);
    const code = requireString(body, 'code').trim();
    await this.throttle.spend('lookup-team-name', context.ip, email);
    const teamName = await this.accounts.lookupTeamName(email, code);
    return { email, code, teamName };
  }
}

function optionalName(body: Record<string, unknown>, property: string): string | null {
  const value = readString(body, property)?.trim() || null;
  if (value && [...value].length > 255) {
    throw ValidationError.of(
      property,
      'This value is too long. It should have 255 characters or less.',
      ViolationCodes.tooLong,
    );
  }
  return value;
}
