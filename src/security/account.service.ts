import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { hashPassword } from '../auth/password-hasher';
import { TokenIssuer, type TokenResponse } from '../auth/token-issuer';
import { AppConfig } from '../config/app-config';
import { ValidationError, ViolationCodes } from '../common/errors/api-errors';
import { MailDispatcher } from '../mail/mail-dispatcher';
import { InvitationsService } from '../teams/invitations.service';
import { AccessRevocation } from '../users/access-revocation';
import { UserStore } from '../users/user-store';
import { accountMails } from './account-mails';
import { UserTokens } from './user-tokens';

export interface SignupInput {
  email: string;
  password: string | null;
  invitationCode: string | null;
  firstName: string | null;
  lastName: string | null;
}

/** Sign-up with an invitation code: the account is ready at once. */
export interface ReadyAccount {
  userId: string;
  token: TokenResponse;
}

/**
 * Accounts: sign-up, e-mail verification, password reset. Answers never depend on whether
 * an address has an account (the e-mail tells its owner), and mail leaves after the answer.
 */
@Injectable()
export class AccountService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly tokens: UserTokens,
    private readonly issuer: TokenIssuer,
    private readonly invitations: InvitationsService,
    private readonly mail: MailDispatcher,
    private readonly revocation: AccessRevocation,
    private readonly users: UserStore,
  ) {}

  /**
   * A new address gets an unverified account and a verification code; an unverified one a
   * new code (carrying this sign-up's password); a verified one a notice. With a valid
   * invitation code the address is proven: the account is verified and signed in at once.
   */
  async signup(input: SignupInput): Promise<ReadyAccount | null> {
    const passwordHash = input.password ? await hashPassword(input.password) : null;
    return this.dataSource.transaction(async (em) => {
      if (input.invitationCode) return this.signupInvited(em, input, passwordHash);
      let user = await this.users.insertIfNew(em, input);
      if (!user) {
        const existing = (await this.users.byEmail(em, input.email))!;
        if (existing.email_verified) {
          this.mail.dispatch(accountMails.alreadyRegistered(this.config, existing.email));
          return null;
        }
        user = existing;
      }
      const code = await this.tokens.issue(em, user.id, 'verify_email', passwordHash);
      this.mail.dispatch(accountMails.verification(this.config, user.email, code));
      return null;
    });
  }

  /** Verifies the address of a code: the user (with the sign-up password) and a token. */
  async verifyEmail(code: string): Promise<ReadyAccount> {
    return this.dataSource.transaction(async (em) => {
      const spent = await this.tokens.consume(em, code, 'verify_email');
      if (!spent) throw invalidCode('code');
      const user = await this.markVerified(em, spent.userId, spent.passwordHash);
      return { userId: user.id, token: await this.issuer.issue(user, em) };
    });
  }

  async resendVerification(email: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const user = await this.users.byEmail(em, email);
      if (!user || user.email_verified) return;
      const password = await this.tokens.pendingPassword(em, user.id);
      await this.tokens.invalidate(em, user.id, 'verify_email');
      const code = await this.tokens.issue(em, user.id, 'verify_email', password);
      this.mail.dispatch(accountMails.verification(this.config, user.email, code));
    });
  }

  async sendPasswordReset(email: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const user = await this.users.byEmail(em, email);
      if (!user) return;
      // One live reset code per account: the new one voids those mailed before.
      await this.tokens.invalidate(em, user.id, 'reset_password');
      const code = await this.tokens.issue(em, user.id, 'reset_password');
      this.mail.dispatch(accountMails.passwordReset(this.config, user.email, code));
    });
  }

  /**
   * Sets a new password with a reset code. The code proves the address (verified), and the
   * access made before ends: every token, refresh token and code (none is kept: a reset has no
   * session of its own), and the account's OAuth clients unless `keepOAuthClients`. The code
   * is checked before the (deliberately slow) hashing, so a wrong code costs no scrypt work.
   */
  async resetPassword(
    code: string,
    newPassword: string,
    keepOAuthClients = false,
  ): Promise<string> {
    return this.dataSource.transaction(async (em) => {
      const spent = await this.tokens.consume(em, code, 'reset_password');
      if (!spent) throw invalidCode('code');
      const passwordHash = await hashPassword(newPassword);
      await this.revocation.revoke(em, spent.userId, { keepOAuthClients, keepTokenId: null });
      // A reset is no acceptance: pending invitations wait for their code.
      const user = await this.markVerified(em, spent.userId, passwordHash, false);
      return user.id;
    });
  }

  async lookupTeamName(email: string, code: string): Promise<string> {
    const invitation = await this.invitations.find(this.dataSource.manager, email, code);
    if (!invitation) throw invalidCode('code', 'This invitation code is invalid or has expired.');
    return invitation.teamName;
  }

  private async signupInvited(
    em: EntityManager,
    input: SignupInput,
    passwordHash: string | null,
  ): Promise<ReadyAccount> {
    const invitation = await this.invitations.find(em, input.email, input.invitationCode!);
    if (!invitation) {
      throw invalidCode('invitationCode', 'This invitation code is invalid or has expired.');
    }
    await this.users.insertIfNew(em, input);
    const row = (await this.users.byEmail(em, input.email))!;
    // A verified account's password stays: the invitation proves the address, not a wish to
    // change it (an unverified account's password was set by nobody proven: it goes).
    // A new address is verified by the code, with every invitation waiting for it; an account
    // that was verified already accepts just the invitation whose code it gives.
    const user = await this.markVerified(
      em,
      row.id,
      row.password_hash && row.email_verified ? null : passwordHash,
      !row.email_verified,
    );
    await this.invitations.accept(em, invitation.id, user.id);
    return { userId: user.id, token: await this.issuer.issue(user, em) };
  }

  /**
   * The address is proven: verified, optional new password, and (sign-up, verification)
   * pending invitations accepted.
   */
  private async markVerified(
    em: EntityManager,
    userId: string,
    passwordHash: string | null,
    acceptInvitations = true,
  ): Promise<{ id: string; email: string }> {
    const firstProof = !(await this.users.emailVerified(em, userId, true));
    if (firstProof) {
      // Until now anyone could have held this account (a storefront registration takes an
      // address nobody proved): what was set up before its owner proved it goes. Tokens and
      // OAuth clients are revoked, and a password set before is replaced by the one this
      // proof carries, or none.
      await this.revocation.revoke(em, userId, { keepOAuthClients: false, keepTokenId: null });
    }
    const user = await this.users.markVerified(em, userId, passwordHash, firstProof);
    await this.tokens.invalidate(em, user.id, 'verify_email');
    if (acceptInvitations) await this.invitations.acceptAll(em, user.id, user.email);
    return user;
  }
}

function invalidCode(
  property: string,
  message = 'This code is invalid or has expired.',
): ValidationError {
  return ValidationError.of(property, message, ViolationCodes.invalid);
}
