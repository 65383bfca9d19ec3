import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { RateBudgets, type Budget } from '../../rate-limit/rate-budget';

const MESSAGE = 'Too many failed signature checks; retry later.';

/**
 * Budgets of failed signature checks at the push receivers (a wrong push signature or secret,
 * a wrong client secret at the push token URL): per credentials record and per client address,
 * shared by every node (src/rate-limit). Checked before the signature (a blocked key is 429,
 * whatever it sends: guessing stops for the window), spent only on a failure, so a provider
 * whose pushes verify never spends anything.
 */
@Injectable()
export class PushThrottle {
  constructor(
    private readonly budgets: RateBudgets,
    private readonly config: AppConfig,
  ) {}

  /** Throws RateLimited (429, Retry-After) while either budget is spent. */
  async assertOpen(credentialsKey: string, address: string): Promise<void> {
    await this.budgets.assertOpen(this.perCredentials(), credentialsKey, MESSAGE);
    await this.budgets.assertOpen(this.perAddress(), address, MESSAGE);
  }

  /** Counts one failed check against both budgets; throws RateLimited when it exceeds one. */
  async spendFailure(credentialsKey: string, address: string): Promise<void> {
    const spent = await Promise.allSettled([
      this.budgets.spend(this.perCredentials(), credentialsKey, MESSAGE),
      this.budgets.spend(this.perAddress(), address, MESSAGE),
    ]);
    const limited = spent.find((s) => s.status === 'rejected');
    if (limited) throw limited.reason;
  }

  private perCredentials(): Budget {
    return {
      name: 'push-failures-credentials',
      limit: this.config.pushFailureLimitPerCredentials,
      windowMs: this.config.pushFailureWindowSeconds * 1000,
    };
  }

  private perAddress(): Budget {
    return {
      name: 'push-failures-address',
      limit: this.config.pushFailureLimitPerAddress,
      windowMs: this.config.pushFailureWindowSeconds * 1000,
    };
  }
}
