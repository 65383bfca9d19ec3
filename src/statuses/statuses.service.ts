import { Injectable } from '@nestjs/common';
import { ValidationError, ViolationCodes } from '../common/errors/api-errors';
import type { ResourceHooks, WriteContext } from '../hydra/core/resource-hooks';
import { VisibleMemory } from '../hydra/collection/visible-memory';
import { removeNotesOfRecord } from '../notes/record-notes';
import { StatusReferencesService } from './status-references.service';
import { StatusStore } from './status-store';
import { Status } from './status.entity';

/** Status rules: trimmed codes and titles; a status in use cannot be deleted. */
@Injectable()
export class StatusesService implements ResourceHooks<Status> {
  constructor(
    private readonly statuses: StatusStore,
    private readonly references: StatusReferencesService,
  ) {}

  prepare(status: Status): void {
    if (typeof status.code === 'string') status.code = status.code.trim();
    if (typeof status.title === 'string') status.title = status.title.trim() || null;
  }

  /** A code may have changed: a transaction that remembered codes (findOrCreate) reads again. */
  afterWrite(_status: Status, ctx: WriteContext): void {
    if (ctx.operation === 'put') VisibleMemory.forget(ctx.em);
  }

  async beforeRemove(status: Status, ctx: WriteContext): Promise<void> {
    const row = await this.statuses.byId(ctx.em, status.id);
    if (!row) return;
    const used = await this.references.countOf(ctx.em, row);
    if (used > 0) {
      throw ValidationError.of(
        'id',
        `This status is used by ${used} ${row.entity}; move them to another status first (POST /statuses/migrate-references).`,
        ViolationCodes.invalid,
        { refsCount: used },
      );
    }
    await removeNotesOfRecord(ctx, status.id);
  }
}
