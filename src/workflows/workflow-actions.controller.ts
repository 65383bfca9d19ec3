import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { Access } from '../access/access.decorator';
import type { Request, Response } from 'express';
import { DataSource } from 'typeorm';
import { EventDelivery } from '../events/event-delivery';
import { HydraApi } from '../hydra/controller/hydra-api';
import { ValidationError, ViolationCodes } from '../hydra/errors/api-errors';
import { identifierFrom } from '../hydra/filters/filter';
import { formatDateTime } from '../hydra/serialization/record-reader';
import { typeError } from '../hydra/write/denormalizer';
import { Workspace } from '../workspaces/workspace.entity';

const MAX_COMMENT_LENGTH = 5000;

/**
 * - `POST /workflows/execute` (body: nothing; optionally `workspace` to run one workspace's):
 *   runs the caller's enabled workflows that have an executor (webhooks) now: every delivery
 *   they hold (period manual), wait for (hourly, daily) or retry later becomes due and is
 *   attempted at once. 200 `{workflows: [IRIs], runs: [IRIs of the runs made]}`.
 * - `POST /workflows/submit-suggestion` `{comment}`: stores a suggestion for a new
 *   integration; 200 `{id, comment, createdAt}`.
 */
// Authenticated; the handlers check the rest until they are declared actions.
@Access('user')
@Controller()
export class WorkflowActionsController {
  constructor(
    private readonly api: HydraApi,
    private readonly dataSource: DataSource,
    private readonly delivery: EventDelivery,
  ) {}

  @Post('/workflows/execute')
  @HttpCode(200)
  async execute(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const principal = this.api.requirePrincipal(req);
    const body = this.api.body(req);
    let workspaceIds = principal.workspaceIds;
    if (body.workspace !== undefined && body.workspace !== null) {
      if (typeof body.workspace !== 'string')
        throw typeError('workspace', 'string', body.workspace);
      const id = identifierFrom(body.workspace);
      if (!id || !(await this.api.data.visible(this.api.resource(Workspace), principal, id))) {
        throw ValidationError.of(
          'workspace',
          `Item not found for "${body.workspace}".`,
          ViolationCodes.invalid,
        );
      }
      workspaceIds = [id];
    }
    const rows: Array<{ id: string }> = workspaceIds.length
      ? await this.dataSource.query(
          `SELECT id FROM workflow
            WHERE workspace_id = ANY($1::uuid[]) AND enabled AND NOT passive
            ORDER BY created_at, id`,
          [workspaceIds],
        )
      : [];
    const ids = rows.map((r) => r.id);
    const runs = await this.delivery.executeWorkflows(ids);
    this.send(req, res, 'WorkflowExecution', {
      workflows: ids.map((id) => `/workflows/${id}`),
      runs: runs.map((id) => `/workflow_runs/${id}`),
    });
  }

  @Post('/workflows/submit-suggestion')
  @HttpCode(200)
  async submitSuggestion(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const principal = this.api.requirePrincipal(req);
    const { comment } = this.api.body(req);
    if (comment !== undefined && comment !== null && typeof comment !== 'string') {
      throw typeError('comment', 'string', comment);
    }
    const text = typeof comment === 'string' ? comment.trim() : '';
    if (!text) {
      throw ValidationError.of(
        'comment',
        'This value should not be blank.',
        ViolationCodes.notBlank,
      );
    }
    if ([...text].length > MAX_COMMENT_LENGTH) {
      throw ValidationError.of(
        'comment',
        `This value is too long. It should have ${MAX_COMMENT_LENGTH} characters or less.`,
        ViolationCodes.tooLong,
      );
    }
    const [row] = await this.dataSource.query(
      `INSERT INTO workflow_suggestion (user_id, comment) VALUES ($1, $2) RETURNING id, created_at`,
      [principal.userId, text],
    );
    this.send(req, res, 'WorkflowSuggestion', {
      id: row.id,
      comment: text,
      createdAt: formatDateTime(new Date(row.created_at)),
    });
  }

  private send(req: Request, res: Response, type: string, payload: Record<string, unknown>): void {
    const format = this.api.responder.negotiate(req, ['jsonld', 'json']);
    this.api.responder.json(
      req,
      res,
      format === 'jsonld'
        ? { '@context': `/contexts/${type}`, '@id': req.path, '@type': type, ...payload }
        : payload,
    );
  }
}
