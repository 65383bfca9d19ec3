import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { Access } from '../access/access.decorator';
import type { Request, Response } from 'express';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../access/principal';
import { HydraApi } from '../hydra/controller/hydra-api';
import { ValidationError, Violation, ViolationCodes } from '../hydra/errors/api-errors';
import { identifierFrom } from '../hydra/filters/filter';
import { Status } from './status.entity';
import {
  StatusRow,
  countStatusReferences,
  loadStatus,
  migrateStatusReferences,
} from './status-references';

/**
 * `POST /statuses/check-references` ({workspaceId, statusId} -> {refsCount})
 * and `POST /statuses/migrate-references` ({workspaceId, fromStatusId,
 * toStatusId} -> {updatedRefsCount}): how many records use a status, and
 * moving them to another status of the same workspace and entity (so the
 * first can be deleted). Ids may be given as ids or IRIs.
 */
// Authenticated; the handlers check the rest until they are declared actions.
@Access('user')
@Controller()
export class StatusReferencesController {
  constructor(
    private readonly api: HydraApi,
    private readonly dataSource: DataSource,
  ) {}

  @Post('/statuses/check-references')
  @HttpCode(200)
  async check(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const principal = this.api.requirePrincipal(req);
    const body = this.api.body(req);
    const status = await this.statusFrom(body, 'statusId', principal);
    const refsCount = await countStatusReferences(this.dataSource.manager, status);
    this.api.responder.json(req, res, { refsCount });
  }

  @Post('/statuses/migrate-references')
  @HttpCode(200)
  async migrate(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const principal = this.api.requirePrincipal(req);
    const body = this.api.body(req);
    const updatedRefsCount = await this.dataSource.transaction(async (em: EntityManager) => {
      const from = await this.statusFrom(body, 'fromStatusId', principal, em);
      const to = await this.statusFrom(body, 'toStatusId', principal, em);
      const violations: Violation[] = [];
      if (to.workspaceId !== from.workspaceId || to.entity !== from.entity) {
        violations.push({
          propertyPath: 'toStatusId',
          message: 'The target status must be a status of the same workspace and entity.',
          code: ViolationCodes.invalid,
        });
      } else if (to.id === from.id) {
        violations.push({
          propertyPath: 'toStatusId',
          message: 'The target status must differ from the source status.',
          code: ViolationCodes.invalid,
        });
      }
      if (violations.length) throw new ValidationError(violations);
      // Lock both statuses so neither is deleted half-way through the move.
      await em.query('SELECT id FROM status WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE', [
        [from.id, to.id],
      ]);
      return migrateStatusReferences(em, from, to);
    });
    this.api.responder.json(req, res, { updatedRefsCount });
  }

  /** The status named by `field`, visible to the caller and in `workspaceId` when given. */
  private async statusFrom(
    body: Record<string, unknown>,
    field: string,
    principal: Principal,
    em: EntityManager = this.dataSource.manager,
  ): Promise<StatusRow> {
    const raw = body[field];
    if (raw === undefined || raw === null || raw === '') {
      throw ValidationError.of(field, 'This value should not be blank.', ViolationCodes.notBlank);
    }
    if (typeof raw !== 'string') {
      throw ValidationError.of(
        field,
        'This value should be of type string.',
        ViolationCodes.invalid,
      );
    }
    const resource = this.api.resource(Status);
    const id = identifierFrom(raw);
    const status =
      id && (await this.api.data.visible(resource, principal, id, em))
        ? await loadStatus(em, id)
        : null;
    if (!status) {
      throw ValidationError.of(field, `Item not found for "${raw}".`, ViolationCodes.invalid);
    }
    const workspace = body.workspaceId;
    if (workspace !== undefined && workspace !== null && workspace !== '') {
      const workspaceId = typeof workspace === 'string' ? identifierFrom(workspace) : null;
      if (workspaceId !== status.workspaceId) {
        throw ValidationError.of(
          field,
          'The status does not belong to the given workspace.',
          ViolationCodes.invalid,
        );
      }
    }
    return status;
  }
}
