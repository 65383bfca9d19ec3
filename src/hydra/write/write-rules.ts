import { Injectable } from '@nestjs/common';
import type { Violation } from '../../common/errors/api-errors';
import type { WriteContext } from '../core/resource-hooks';

/** A rule another module attaches to a resource's writes; violations become a 422. */
export type WriteRule = (
  entity: Record<string, any>,
  ctx: WriteContext,
) => Promise<Violation[]> | Violation[];

/**
 * Cross-cutting rules on a resource's POST/PUT that belong to another module (plan limits on
 * workspace creation, say), so the resource's own service need not know that module. The
 * owning module registers them once (`rules.register(Workspace, fn)` in onModuleInit); the write
 * pipeline runs them after the resource's own `validate` hook, in the write's transaction, only
 * when everything else passed.
 */
@Injectable()
export class WriteRules {
  private readonly rules = new Map<Function, WriteRule[]>();

  register(target: Function, rule: WriteRule): void {
    const list = this.rules.get(target) ?? [];
    list.push(rule);
    this.rules.set(target, list);
  }

  async run(entity: Record<string, any>, ctx: WriteContext): Promise<Violation[]> {
    const out: Violation[] = [];
    for (const rule of this.rules.get(ctx.resource.target) ?? []) {
      out.push(...(await rule(entity, ctx)));
      // The first refusing rule decides: later ones may assume the earlier held.
      if (out.length > 0) break;
    }
    return out;
  }
}
