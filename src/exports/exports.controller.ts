import { Controller } from '@nestjs/common';
import type { Principal } from '../access/principal';
import type { ActionContext } from '../hydra/actions/action-declaration';
import { Action } from '../hydra/actions/action.decorator';
import type { SentFile } from '../hydra/actions/action-result';
import { scopedWorkspace } from '../workspaces/workspace-scoped.input';
import { exportRequest } from './export-request';
import { Export } from './export.entity';
import { ExportInput } from './export.input';
import { ExportsService } from './exports.service';

/**
 * `POST /export` queues an export; `GET /exports/{id}` (a resource) follows it, and the caller
 * is notified (tag `export`) when it is done. `GET /exports/{id}/download` streams the file.
 */
@Controller()
export class ExportsController {
  constructor(private readonly exports: ExportsService) {}

  @Action({
    method: 'POST',
    path: '/export',
    summary: 'Exports the shipments or orders matching a collection query to a CSV file.',
    description:
      'Answers the queued export at once; a job writes every row the collection query (`filters`/`params`) matches and notifies the caller (tag `export`). Searches the caller’s workspaces, or the one `workspaceId` names.',
    input: ExportInput,
    output: { item: Export },
    formats: ['jsonld', 'json'],
    access: 'workspace:read',
    workspace: scopedWorkspace,
  })
  create(input: ExportInput, principal: Principal, context: ActionContext<'workspace?'>) {
    return this.exports.queue(principal, exportRequest({ ...input }), context.workspaceId);
  }

  /**
   * The CSV file, whatever the Accept header asks (a file download); the caller's own exports
   * only (404 else), 409 while not ready.
   */
  @Action({
    method: 'GET',
    path: '/exports/:id/download',
    summary: 'Downloads the CSV file of a finished export.',
    description:
      'Streams the file of one of the caller\u2019s own exports as text/csv, whatever the Accept header. 404 for an export of someone else or none; 409 while it is not finished.',
    output: { file: ['text/csv'] },
    access: 'user',
    responses: { 409: { description: 'The export is not finished yet.' } },
  })
  async download(_input: unknown, principal: Principal, context: ActionContext): Promise<SentFile> {
    const file = await this.exports.download(principal, context.params.id);
    return {
      type: 'text/csv; charset=utf-8',
      body: file.stream,
      length: file.size,
      headers: {
        'Content-Disposition': `attachment; filename="${file.fileName}"`,
        'Cache-Control': 'private, no-store',
      },
    };
  }
}
