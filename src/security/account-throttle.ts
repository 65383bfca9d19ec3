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
  | 'password-login'
  | 'storefront-register';

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
    const address = typeof from === 'string' ? from : (from.ip ?? from.socket.remoteAddress ?? '');
    await this.budgets.spend(this.perAddress(), `${action}|${address}`);
    if (account) await this.spendFailure(action, account);
  }

  /**
   * Refuses (RateLimited) while the account's budget for the action is spent, counting
   * nothing: a sign-in checks it before the password, and spends it only when the password
   * was wrong (spendFailure), so signing in successfully never locks anyone out.
   */
  async assertAccountOpen(action: AccountAction, account: string): Promise<void> {
    await this.budgets.assertOpen(this.perAccount(), accountKey(action, account));
  }

  /** Counts one attempt of the account (a failed one, for sign-ins) against its budget. */
  async spendFailure(action: AccountAction, account: string): Promise<void> {
    await this.budgets.spend(this.perAccount(), accountKey(action, account));
  }

  private perAddress() {
    const windowMs = this.config.accountRateWindowSeconds * 1000;
    return { name: 'account-ip', limit: this.config.accountRateLimitPerAddress, windowMs };
  }

  private perAccount() {
    const windowMs = this.config.accountRateWindowSeconds * 1000;
    return { name: 'account-id', limit: this.config.accountRateLimitPerAccount, windowMs };
  }
}

function accountKey(action: AccountAction, account: string): string {
  return `${action}|${account.trim().toLowerCase()}`;
}
