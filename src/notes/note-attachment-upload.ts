import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Principal } from '../access/principal';
import type { UploadedFile } from '../hydra/actions/action-declaration';
import { DataProvider } from '../hydra/collection/data-provider';
import { ValidationError, ViolationCodes } from '../common/errors/api-errors';
import { ResourceRegistry } from '../hydra/metadata/resource-registry';
import { Media } from '../media/media.entity';
import { MediaService } from '../media/media.service';
import { assertMayChange, noteOwner } from './note-access';
import { NoteStore } from './note-store';

/**
 * Attaching a file to a note: uploaded with the request, or an existing media of the
 * caller's (`/media/<id>`; one the caller cannot see is the reference's 422). Changing a note
 * is for its author and team admins (note-access.ts).
 */
@Injectable()
export class NoteAttachmentUpload {
  constructor(
    private readonly dataSource: DataSource,
    private readonly data: DataProvider,
    private readonly registry: ResourceRegistry,
    private readonly media: MediaService,
    private readonly store: NoteStore,
  ) {}

  /** Returns the new NoteAttachment's id. */
  async attach(
    principal: Principal,
    noteId: string,
    source: { file: UploadedFile & { buffer: Buffer } } | { media: string | null | undefined },
  ): Promise<string> {
    const mediaId = 'media' in source ? await this.mediaOf(principal, source.media) : null;
    return this.dataSource.transaction(async (em) => {
      const owner = await noteOwner(this.store, em, noteId);
      assertMayChange(principal, owner);
      const stored =
        'file' in source
          ? await this.media.upload(principal, source.file, { workspaceId: owner.workspaceId, em })
          : await this.media.attach(em, mediaId!, owner.workspaceId);
      const id = await this.store.addAttachment(em, owner.workspaceId, noteId, stored);
      if (id === undefined)
        throw ValidationError.of(
          'media',
          'This file is already attached to the note.',
          ViolationCodes.unique,
        );
      return id;
    });
  }

  private async mediaOf(principal: Principal, iri: string | null | undefined): Promise<string> {
    if (iri === undefined || iri === null || iri === '')
      throw ValidationError.of('media', 'This value should not be blank.', ViolationCodes.notBlank);
    const id = iri.startsWith('/media/')
      ? await this.data.resolveReference(this.registry.get(Media), principal, iri)
      : null;
    if (!id) throw ValidationError.of('media', `Item not found for "${iri}".`);
    return id;
  }
}
