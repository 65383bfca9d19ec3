import { Injectable } from '@nestjs/common';
import { canWriteWorkspace, type Principal } from '../access/principal';
import { ForbiddenError, ValidationError, ViolationCodes } from '../common/errors/api-errors';
import { RateBudgets } from '../rate-limit/rate-budget';
import { UserMailStore } from '../users/user-mail-store';

/** Test e-mails one caller may send per window. */
export const SEND_TEST_BUDGET = { name: 'send-test', limit: 10, windowMs: 15 * 60_000 };

/**
 * Who a test e-mail may go to, so `send_test` is no relay for arbitrary HTML to arbitrary
 * people: the caller must be able to change the workspace's notifications, the recipient must
 * be the caller's own verified address or a verified member of the workspace's team, and each
 * caller has a budget (shared by every node).
 */
@Injectable()
export class TestRecipients {
  constructor(
    private readonly users: UserMailStore,
    private readonly budgets: RateBudgets,
  ) {}

  async check(principal: Principal, workspaceId: string, to: string): Promise<void> {
    if (!canWriteWorkspace(principal, workspaceId))
      throw new ForbiddenError('Read-only access to this workspace.');
    if (!(await this.users.isTestRecipient(to, principal.userId, workspaceId))) {
      throw ValidationError.of(
        'email',
        'A test e-mail goes to your own verified address or to a member of the team.',
        ViolationCodes.invalid,
      );
    }
    await this.budgets.spend(
      SEND_TEST_BUDGET,
      principal.userId,
      'Too many test e-mails; retry later.',
    );
  }
}
