import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { hashPassword } from '../auth/password-hasher';
import { TokenIssuer, type TokenResponse } from '../auth/token-issuer';
import { AppConfig } from '../config/app-config';
import { ValidationError, ViolationCodes } from '../common/errors/api-errors';
import { MailDispatcher } from '../mail/mail-dispatcher';
import { InvitationsService } from '../teams/invitations.service';
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
      const [created] = await em.query(
        `INSERT INTO "user" (email, first_name, last_name) VALUES ($1, $2, $3)
         ON CONFLICT (email) DO NOTHING RETURNING id, email::text AS email`,
        [input.email, input.firstName, input.lastName],
      );
      const user =
        created ??
        (
          await em.query(
            `SELECT id, email::text AS email, email_verified FROM "user" WHERE email = $1`,
            [input.email],
          )
        )[0];
      if (user.email_verified) {
        this.mail.dispatch(accountMails.alreadyRegistered(this.config, user.email));
        return null;
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
      const [user] = await em.query(
        `SELECT id, email::text AS email, email_verified FROM "user" WHERE email = $1`,
        [email],
      );
      if (!user || user.email_verified) return;
      const password = await this.tokens.pendingPassword(em, user.id);
      await this.tokens.invalidate(em, user.id, 'verify_email');
      const code = await this.tokens.issue(em, user.id, 'verify_email', password);
      this.mail.dispatch(accountMails.verification(this.config, user.email, code));
    });
  }

  async sendPasswordReset(email: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const [user] = await em.query(
        `SELECT id, email::text AS email FROM "user" WHERE email = $1`,
        [email],
      );
      if (!user) return;
      // One live reset code per account: the new one voids those mailed before.
      await this.tokens.invalidate(em, user.id, 'reset_password');
      const code = await this.tokens.issue(em, user.id, 'reset_password');
      this.mail.dispatch(accountMails.passwordReset(this.config, user.email, code));
    });
  }

  /**
   * Sets a new password with a reset code. The code proves the address (verified), and
   * every token issued before stops working. The code is checked before the (deliberately
   * slow) hashing, so a wrong code costs no scrypt work.
   */
  async resetPassword(code: string, newPassword: string): Promise<string> {
    return this.dataSource.transaction(async (em) => {
      const spent = await this.tokens.consume(em, code, 'reset_password');
      if (!spent) throw invalidCode('code');
      const passwordHash = await hashPassword(newPassword);
      await this.issuer.revokeAllFor(spent.userId, em);
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
    await em.query(
      `INSERT INTO "user" (email, first_name, last_name) VALUES ($1, $2, $3) ON CONFLICT (email) DO NOTHING`,
      [input.email, input.firstName, input.lastName],
    );
    const [row] = await em.query(
      `SELECT id, password_hash, email_verified FROM "user" WHERE email = $1`,
      [input.email],
    );
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
    const [before] = await em.query(`SELECT email_verified FROM "user" WHERE id = $1 FOR UPDATE`, [
      userId,
    ]);
    const firstProof = !before.email_verified;
    if (firstProof) {
      // Until now anyone could have held this account (a storefront registration takes an
      // address nobody proved): what was set up before its owner proved it goes. Tokens and
      // OAuth clients are revoked, and a password set before is replaced by the one this
      // proof carries, or none.
      await this.issuer.revokeAllFor(userId, em);
      await em.query(`DELETE FROM oauth_client WHERE user_id = $1`, [userId]);
    }
    const [row] = await em.query(
      `UPDATE "user" SET email_verified = true,
              password_hash = CASE WHEN $3 THEN $2 ELSE COALESCE($2, password_hash) END,
              updated_at = now()
        WHERE id = $1 RETURNING id, email::text AS email`,
      [userId, passwordHash, firstProof],
    );
    const user = (Array.isArray(row) ? row[0] : row) as { id: string; email: string };
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
