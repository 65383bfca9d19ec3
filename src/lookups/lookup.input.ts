import { Typed } from '../hydra/validation/input-types';
import { WorkspaceScopedInput } from '../workspaces/workspace-scoped.input';

/**
 * `POST /shipments/lookup` and `POST /orders/lookup`: what to look for. Every given criterion
 * must match; at least one is needed (422 otherwise, see `lookupCriteria`).
 */
export class LookupInput extends WorkspaceScopedInput {
  /** Compared without case. */
  @Typed('string') trackingNumber?: string | null;
  @Typed('string') orderNumber?: string | null;
  /** Compared without case. */
  @Typed('string') email?: string | null;
  /** Compared by its national digits (at least 6), whatever the formatting. */
  @Typed('string') phoneNumber?: string | null;
  /** One value matched against all four criteria (what a support agent pastes). */
  @Typed('string') query?: string | null;
}
