import { Controller } from '@nestjs/common';
import type { Principal } from '../access/principal';
import { errorPage } from '../auth/authorization-page';
import type { ActionContext } from '../hydra/actions/action-declaration';
import { Action } from '../hydra/actions/action.decorator';
import { classSchema } from '../hydra/actions/action-schemas';
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
import { EmailEcho, InvitationTeamName, SignedIn, SignupResponse } from './security.output';
import { verifyEmailPage, verifiedPage } from './verify-email-page';

const PAGE_HEADERS = {
  'Cache-Control': 'no-store',
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
};

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
    description:
      'With a valid invitation code the account is ready at once and answers `{user, token}`. Without one it waits for e-mail verification: `token` is null and a code is mailed, whether or not the address was known.',
    input: SignupInput,
    output: { json: SignupResponse },
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
      'The link of the verification e-mail (`?code=`): a page whose button posts the code to `POST /security/verify-email`, so link scanners do not spend it. Never cached.',
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
    description:
      'Marks the address of `code` verified and signs the user in: answers `{user, token}` (201). The page’s form (Accept: text/html) gets a page saying so.',
    input: VerifyEmailInput,
    form: { formats: ['jsonld', 'json', 'html'] },
    output: { oneOf: { json: SignedIn, html: true } },
    status: 201,
    responses: {
      201: {
        description:
          'Marks the address of `code` verified and signs the user in: answers `{user, token}` (201). The page’s form (Accept: text/html) gets a page saying so.',
        content: {
          'application/ld+json': { schema: classSchema(SignedIn) },
          'application/json': { schema: classSchema(SignedIn) },
        },
      },
      200: {
        description:
          'Marks the address of `code` verified and signs the user in: answers `{user, token}` (201). The page’s form (Accept: text/html) gets a page saying so.',
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
    description:
      'Mails a new code if the address awaits verification. The answer `{email}` is the same either way, so it tells nobody whether the address has an account.',
    input: EmailInput,
    output: { json: EmailEcho },
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
    description:
      'Mails a reset code if the address has an account. The answer `{email}` is the same either way.',
    input: EmailInput,
    output: { json: EmailEcho },
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
    description:
      'Sets the password of the reset `code` and answers the user. Tokens, authorization codes and, unless `keepOAuthClients` is true, the OAuth clients the account made stop working.',
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
    const userId = await this.accounts.resetPassword(
      code,
      password,
      input.keepOAuthClients === true,
    );
    return this.users.record(userId);
  }

  @Action({
    method: 'POST',
    path: '/security/lookup-team-name',
    summary: 'Names the team of an invitation.',
    description:
      'Answers `{email, code, teamName}` of an invitation, so the sign-up form can show which team the user joins.',
    input: LookupTeamNameInput,
    output: { json: InvitationTeamName },
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
