import { Injectable } from '@nestjs/common';
import { BadRequestError, Violation, ViolationCodes } from '../common/errors/api-errors';
import { identifierFrom } from '../hydra/core/identifiers';
import type { ResourceMeta } from '../hydra/core/resource-meta';
import { ResourceRegistry } from '../hydra/metadata/resource-registry';
import { resolvePropertyPath } from '../hydra/query/property-path';
import { SqlQuery, quoteIdent } from '../hydra/core/sql-query';
import type { ResourceHooks, WriteContext } from '../hydra/core/resource-hooks';
import type { EntityManager } from 'typeorm';
import { MediaService } from '../media/media.service';
import { NoteStore } from './note-store';
import { User } from '../users/user.entity';
import { assertMayChange, noteOwner } from './note-access';
import { NoteAttachment } from './note-attachment.entity';
import { NoteReminder } from './note-reminder.entity';
import { removeNote } from './record-notes';
import { Note } from './note.entity';

/** Resources a note cannot be about: notes themselves and their parts, raw uploads. */
const NOT_NOTABLE: Function[] = [Note, NoteAttachment, NoteReminder];

/**
 * Note rules: `entity` names a workspace-owned collection (`orders`, `shipments`,
 * `tracking_pages`, ... whatever is registered), `entityId` a record of it in the note's
 * workspace; a note has a comment or an attachment; its author is the caller.
 */
@Injectable()
export class NotesService implements ResourceHooks<Note> {
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly media: MediaService,
    private readonly store: NoteStore,
  ) {}

  /** Collection names a note may be about, from the registered resource declarations. */
  notableEntities(): Map<string, ResourceMeta> {
    const out = new Map<string, ResourceMeta>();
    for (const r of this.registry.all()) {
      const rule = r.options.tenancy;
      if (rule === 'public' || !('workspace' in rule) || NOT_NOTABLE.includes(r.target)) continue;
      if (!/^\/[a-z_]+$/.test(r.path) || !r.idIsUuid) continue;
      out.set(r.path.slice(1), r);
    }
    return out;
  }

  async prepare(note: Note, ctx: WriteContext): Promise<void> {
    if (ctx.operation === 'post') {
      note.user = { id: ctx.principal.userId } as User;
      if (typeof note.entityId === 'string' && note.entityId.includes('/'))
        note.entityId = identifierFrom(note.entityId) ?? note.entityId;
    } else {
      assertMayChange(ctx.principal, await noteOwner(this.store, ctx.em, note.id));
      // PUT replaces the writable members.
      if (!('comment' in ctx.body)) note.comment = null;
      if (!('attachment' in ctx.body)) note.attachment = null;
    }
    if ('attachment' in ctx.nested) {
      if (ctx.nested.attachment !== null)
        throw new BadRequestError(
          'Nested documents for attribute "attachment" are not allowed. Use IRIs instead.',
        );
      note.attachment = null;
    }
  }

  async validate(note: Note, ctx: WriteContext): Promise<Violation[]> {
    const out: Violation[] = [];
    if (ctx.operation === 'post') out.push(...(await this.targetViolations(note, ctx.em)));
    if (!note.comment?.trim() && !note.attachment?.id)
      out.push({
        propertyPath: 'comment',
        message: 'This value should not be blank.',
        code: ViolationCodes.notBlank,
      });
    return out;
  }

  async afterWrite(note: Note, ctx: WriteContext): Promise<void> {
    const mediaId = note.attachment?.id;
    if (!mediaId) return;
    const { workspaceId } = await noteOwner(this.store, ctx.em, note.id);
    const id = await this.media.attach(ctx.em, mediaId, workspaceId);
    if (id !== mediaId) await this.store.setAttachment(ctx.em, note.id, id);
    await this.store.addAttachment(ctx.em, workspaceId, note.id, id);
  }

  async beforeRemove(note: Note, ctx: WriteContext): Promise<void> {
    assertMayChange(ctx.principal, await noteOwner(this.store, ctx.em, note.id));
  }

  /** The note goes with its reminders and files; a file's media too once nothing uses it. */
  async remove(note: Note, ctx: WriteContext): Promise<void> {
    await removeNote(ctx.em, note.id);
  }

  /** `entity` is a notable collection and `entityId` one of its records in the workspace. */
  private async targetViolations(note: Note, em: EntityManager): Promise<Violation[]> {
    if (!note.entity || !note.entityId || !note.workspace?.id) return [];
    const resource = this.notableEntities().get(note.entity);
    if (!resource)
      return [
        {
          propertyPath: 'entity',
          message: 'The value you selected is not a valid choice.',
          code: ViolationCodes.choice,
        },
      ];
    const id = identifierFrom(note.entityId);
    if (!id || id !== note.entityId.toLowerCase())
      return [
        {
          propertyPath: 'entityId',
          message: 'This is not a valid UUID.',
          code: ViolationCodes.invalid,
        },
      ];
    note.entityId = id;
    const rule = resource.options.tenancy as { workspace: string };
    const query = new SqlQuery(resource.table, 't');
    const workspace = resolvePropertyPath(
      resource,
      rule.workspace,
      query,
      this.registry.describeColumn,
    )!;
    query.andWhere(`t.${quoteIdent(resource.idColumn)} = ${query.param(id)}::uuid`);
    query.andWhere(`${workspace.sql} = ${query.param(note.workspace.id)}::uuid`);
    // The key-share lock keeps the record until the note commits: a delete running meanwhile
    // waits, then removes this note with the record (removeNotesOf); one that went first
    // leaves no row to find here. Either way no note outlives its record.
    if (await this.store.recordLocked(em, query)) return [];
    return [
      {
        propertyPath: 'entityId',
        message: `Item not found for "${resource.path}/${id}".`,
        code: null,
      },
    ];
  }
}
