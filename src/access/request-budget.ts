import type { Request, Response } from 'express';
import type { Principal } from './principal';

/**
 * The budgets every request counts against (per caller, per team, per client address),
 * provided by the rate-limit module so the access layer imports no feature: the AccessGuard
 * charges each request once it knows who calls. `charge` sets the rate-limit headers on the
 * answer and throws a 429 beyond a budget; it never waits for the database.
 */
export interface RequestBudget {
  charge(req: Request, res: Response, principal: Principal | null): void;
}

/** The injection token of the RequestBudget (optional: absent, nothing is counted). */
export const REQUEST_BUDGET = Symbol('REQUEST_BUDGET');
