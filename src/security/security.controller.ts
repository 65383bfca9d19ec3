import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Public } from '../access/public.decorator';
import { errorPage } from '../auth/authorization-page';
import { HydraApi } from '../hydra/controller/hydra-api';
import { ValidationError, ViolationCodes } from '../hydra/errors/api-errors';
import { User } from '../users/user.entity';
import { UserView } from '../users/user-view';
import { readNewPassword } from '../users/password-policy';
import { AccountService } from './account.service';
import { AccountThrottle } from './account-throttle';
import { readString, requireEmail, requireString } from './body-fields';
import { verifyEmailPage, verifiedPage } from './verify-email-page';

/**
 * Public account endpoints (spec "Users and security"). Bodies are JSON (or forms);
 * answers JSON-LD or JSON. Where an answer could tell whether an address has an account,
 * it is the same either way and the e-mail tells its owner.
 */
@Public()
@Controller('security')
export class SecurityController {
  constructor(
    private readonly api: HydraApi,
    private readonly accounts: AccountService,
    private readonly users: UserView,
    private readonly throttle: AccountThrottle,
  ) {}

  /**
   * `{email, password?, invitationCode?, firstName?, lastName?}` -> 200 `{user, token}`.
   * Without an invitation code the account waits for e-mail verification: `user` shows
   * only the address and `token` is null, whether or not the address was known.
   */
  @Post('signup')
  @HttpCode(200)
  async signup(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const body = this.api.body(req);
    const email = requireEmail(body);
    const password = readNewPassword(body.password ?? body.plainPassword, 'password');
    const invitationCode = readString(body, 'invitationCode')?.trim() || null;
    const firstName = optionalName(body, 'firstName');
    const lastName = optionalName(body, 'lastName');
    await this.throttle.spend('signup', req, email);
    const ready = await this.accounts.signup({
      email,
      password,
      invitationCode,
      firstName,
      lastName,
    });
    if (ready) {
      const user = await this.users.embedded(req, ready.userId);
      this.api.responder.json(req, res, { user, token: ready.token });
      return;
    }
    this.api.responder.json(req, res, {
      user: { '@type': 'User', email, emailVerified: false },
      token: null,
      message: 'Check your inbox: we sent a code to verify this address.',
    });
  }

  /** The link in the verification e-mail: a page whose button posts the code. */
  @Get('verify-email')
  verifyEmailForm(@Req() req: Request, @Res() res: Response): void {
    const code = typeof req.query.code === 'string' ? req.query.code : '';
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader(
      'Content-Security-Policy',
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
    );
    if (!code) {
      res.status(400).type('html').send(errorPage('Invalid link', 'The link has no code.'));
      return;
    }
    res.status(200).type('html').send(verifyEmailPage(code));
  }

  /** `{code}` -> 201 `{user, token}`: verified, and signed in at once. */
  @Post('verify-email')
  @HttpCode(201)
  async verifyEmail(@Req() req: Request, @Res() res: Response): Promise<void> {
    const fromPage =
      req.is('application/x-www-form-urlencoded') && req.accepts(['json', 'html']) === 'html';
    if (!fromPage) this.api.responder.negotiate(req, ['jsonld', 'json']);
    const body = this.api.body(req);
    const code = requireString(body, 'code').trim();
    await this.throttle.spend('verify-email', req);
    const ready = await this.accounts.verifyEmail(code);
    if (fromPage) {
      res.status(200).type('html').send(verifiedPage());
      return;
    }
    const user = await this.users.embedded(req, ready.userId);
    this.api.responder.json(req, res, { user, token: ready.token }, 201);
  }

  /** `{email}` -> 201 `{email}`; a new code goes out if the address awaits verification. */
  @Post('resend-email')
  @HttpCode(201)
  async resendEmail(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const email = requireEmail(this.api.body(req));
    await this.throttle.spend('resend-email', req, email);
    await this.accounts.resendVerification(email);
    this.api.responder.json(req, res, { email }, 201);
  }

  /** `{email}` -> 201 `{email}`; a reset code goes out if the address has an account. */
  @Post('forgot-password/send-email')
  @HttpCode(201)
  async forgotPassword(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const email = requireEmail(this.api.body(req));
    await this.throttle.spend('forgot-password', req, email);
    await this.accounts.sendPasswordReset(email);
    this.api.responder.json(req, res, { email }, 201);
  }

  /** `{code, newPassword}` -> 200 the user. Tokens issued before stop working. */
  @Post('forgot-password/reset')
  @HttpCode(200)
  async resetPassword(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req);
    const body = this.api.body(req);
    const code = requireString(body, 'code').trim();
    requireString(body, 'newPassword');
    const password = readNewPassword(body.newPassword, 'newPassword')!;
    await this.throttle.spend('reset-password', req);
    const userId = await this.accounts.resetPassword(code, password);
    const record = await this.users.record(userId);
    this.api.responder.item(req, res, this.api.resource(User), record);
  }

  /** `{email, code}` of an invitation -> 200 `{email, code, teamName}`. */
  @Post('lookup-team-name')
  @HttpCode(200)
  async lookupTeamName(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const body = this.api.body(req);
    const email = requireEmail(body);
    const code = requireString(body, 'code').trim();
    await this.throttle.spend('lookup-team-name', req, email);
    const teamName = await this.accounts.lookupTeamName(email, code);
    this.api.responder.json(req, res, { email, code, teamName });
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
