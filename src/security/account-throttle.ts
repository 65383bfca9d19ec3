import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AppConfig } from '../config/app-config';
import { RateBudgets } from '../rate-limit/rate-budget';

/** Account actions with their own budgets. */
export type AccountAction =
  | 'signup'
  | 'resend-email'
  | 'verify-email'
  | 'forgot-password'
  | 'reset-password'
  | 'lookup-team-name'
  | 'password-login';

/**
 * Budgets of the account endpoints: each action per client address and, where the request
 * names one, per e-mail address (lower-cased) or account, so neither one address flooding
 * many accounts nor many addresses hammering one account (mails, password guesses) get far.
 * Spent after the input was read (a malformed request costs nothing and changes nothing),
 * before any work (hashing, mail). Counters are shared by every node (src/rate-limit).
 */
@Injectable()
export class AccountThrottle {
  constructor(
    private readonly budgets: RateBudgets,
    private readonly config: AppConfig,
  ) {}

  /** `from`: the request, or the client address (declared actions' `context.ip`). */
  async spend(
    action: AccountAction,
    from: Request | string,
    account?: string | null,
  ): Promise<void> {
    const windowMs = this.config.accountRateWindowSeconds * 1000;
    const address = typeof from === 'string' ? from : (from.ip ?? from.socket.remoteAddress ?? '');
    await this.budgets.spend(
      { name: `account-ip`, limit: this.config.accountRateLimitPerAddress, windowMs },
      `${action}|${address}`,
    );
    if (account) {
      await this.budgets.spend(
        { name: `account-id`, limit: this.config.accountRateLimitPerAccount, windowMs },
        `${action}|${account.trim().toLowerCase()}`,
      );
    }
  }
}
