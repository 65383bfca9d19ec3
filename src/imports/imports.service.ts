import { pausePoint } from '../common/pause-point';
import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { canWriteWorkspace, type Principal } from '../access/principal';
import { PrincipalLoader } from '../access/principal-loader';
import { HydraApi } from '../hydra/controller/hydra-api';
import {
  ApiError,
  BadRequestError,
  ValidationError,
  ViolationCodes,
} from '../common/errors/api-errors';
import type { ResourceHooks } from '../hydra/core/resource-hooks';
import { JobQueue } from '../jobs/job-queue';
import { NotificationsService } from '../notifications/notifications.service';
import { Order } from '../orders/order.entity';
import { OrdersService } from '../orders/orders.service';
import { Shipment } from '../shipments/shipment.entity';
import { ShipmentsService } from '../shipments/shipments.service';
import { CsvTable, CsvTableError, readCsvTable } from './csv-table';
import type { UploadedFile } from '../hydra/actions/action-declaration';
import { CsvUpload, csvUpload } from './csv-upload';
import type { ImportInput } from './import.input';
import type { ImportPreUpload } from './import.output';
import {
  IMPORT_FIELDS,
  ImportEntity,
  checkMapping,
  guessEntity,
  missingRequired,
  rowBody,
  suggestMapping,
} from './import-fields';
import { type ClaimedImport, ImportStore } from './import-store';

export const IMPORT_QUEUE = 'imports.run';
/** Rows one import may have. */
export const MAX_IMPORT_ROWS = 50_000;
/** Refused rows listed on the import (all are counted in failedCount). */
export const MAX_LISTED_ERRORS = 1000;
/** Job runs after which an import that keeps failing internally is given up. */
const MAX_ATTEMPTS = 5;
const PREVIEW_ROWS = 10;

interface ImportRequest {
  workspaceId: string;
  entity: ImportEntity;
  upload: CsvUpload;
  table: CsvTable;
  body: Record<string, unknown>;
}

/**
 * CSV imports of shipments and orders: a preview with a suggested column mapping, then a
 * durable job that writes each row through the resource's write pipeline and rules (shipments:
 * validation, carrier detection, order links, tracking; orders: numbers, statuses, links).
 * Each row commits on its own together with the import's counters, under a lock of the import
 * row, so a job that dies and is retried resumes exactly after the last committed row.
 */
@Injectable()
export class ImportsService {
  private readonly logger = new Logger(ImportsService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly api: HydraApi,
    private readonly jobs: JobQueue,
    private readonly principals: PrincipalLoader,
    private readonly notifications: NotificationsService,
    private readonly shipments: ShipmentsService,
    private readonly orders: OrdersService,
    private readonly store: ImportStore,
  ) {
    jobs.declareQueue({
      name: IMPORT_QUEUE,
      retryLimit: MAX_ATTEMPTS,
      retryDelay: 5,
      retryBackoff: true,
      expireInSeconds: 3600,
    });
    jobs.work<{ importId: string }>({
      queue: IMPORT_QUEUE,
      handle: async ({ importId }) => {
        await this.run(importId);
      },
    });
  }

  /** What the file holds and how its columns would map; nothing is stored. */
  preview(
    input: ImportInput,
    files: Readonly<Record<string, readonly UploadedFile[]>>,
    workspaceId: string | undefined,
  ): ImportPreUpload {
    const { entity, upload, table } = this.readRequest(input, files, workspaceId);
    return {
      workspace: `/workspaces/${workspaceId}`,
      entity,
      fileOriginalName: upload.originalName,
      fileMimeType: upload.mimeType,
      fileSize: upload.size,
      delimiter: table.delimiter,
      columns: table.columns,
      rowCount: table.rows.length,
      preview: table.rows.slice(0, PREVIEW_ROWS).map((row) => ({
        line: row.line,
        values: Object.fromEntries(table.columns.map((c, i) => [c, row.values[i]])),
      })),
      suggestedMapping: suggestMapping(entity, table.columns),
      fields: IMPORT_FIELDS[entity].map((f) => ({ name: f.name, required: f.required })),
    };
  }

  /** Stores the import with its checked mapping and queues its job, in one transaction. */
  async start(
    principal: Principal,
    input: ImportInput,
    files: Readonly<Record<string, readonly UploadedFile[]>>,
    workspaceId: string | undefined,
  ): Promise<string> {
    const request = this.readRequest(input, files, workspaceId);
    const { entity, table, upload } = request;
    const given = mappingOf(request.body.mapping) ?? suggestMapping(entity, table.columns);
    const { mapping, violations } = checkMapping(entity, table.columns, given);
    if (violations.length)
      throw new ValidationError(violations.map((v) => ({ ...v, code: ViolationCodes.invalid })));
    return this.dataSource.transaction(async (em) => {
      const id = await this.store.create(em, {
        workspaceId: request.workspaceId,
        userId: principal.userId,
        entity,
        fileOriginalName: upload.originalName?.slice(0, 255) ?? null,
        fileMimeType: upload.mimeType,
        fileSize: upload.size,
        mapping,
        content: upload.text,
        totalRows: table.rows.length,
      });
      await this.jobs.send(IMPORT_QUEUE, { importId: id }, { runner: em, singletonKey: id });
      return id;
    });
  }

  /** The job: claim, then import the rows not yet processed, then finish. */
  async run(importId: string): Promise<void> {
    const claimed = await this.store.claim(this.dataSource, importId);
    if (!claimed) return; // finished, or removed with its workspace
    if (claimed.attempts > MAX_ATTEMPTS) {
      await this.finish(importId, claimed, 'failed', 'The import stopped after repeated errors.');
      return;
    }
    const principal = claimed.user_id ? await this.principals.forUser(claimed.user_id) : null;
    if (
      !principal ||
      !principal.workspaceIds.includes(claimed.workspace_id) ||
      !canWriteWorkspace(principal, claimed.workspace_id)
    ) {
      await this.finish(
        importId,
        claimed,
        'failed',
        'The user who started the import can no longer write to its workspace.',
      );
      return;
    }
    const table = readCsvTable(claimed.content ?? '', MAX_IMPORT_ROWS);
    const resource = this.api.resource(claimed.entity === 'orders' ? Order : Shipment);
    const hooks: ResourceHooks = claimed.entity === 'orders' ? this.orders : this.shipments;
    for (let index = claimed.processed_rows; index < table.rows.length; index++) {
      const row = table.rows[index];
      const body = rowBody(
        claimed.entity,
        `/workspaces/${claimed.workspace_id}`,
        claimed.mapping,
        table.columns,
        row.values,
      );
      const proceed = await this.dataSource.transaction(async (em) => {
        const state = await this.store.progress(em, importId);
        // Removed, finished, or this row was committed by another run of the job.
        if (!state || state.status !== 'processing') return false;
        if (state.processed_rows !== index) return state.processed_rows < index ? false : true;
        const missing = missingRequired(claimed.entity, body);
        let error: string | null = missing.length ? rowError(new ValidationError(missing)) : null;
        try {
          if (error === null)
            await em.transaction((inner) =>
              this.api.writer.createWithin(inner, resource, body, principal, hooks),
            );
        } catch (e) {
          error = rowError(e);
          if (error === null) throw e;
        }
        await this.recordRow(
          em,
          importId,
          error === null ? null : { line: row.line, message: error },
        );
        return true;
      });
      if (!proceed) return;
      await pausePoint('import.row.committed');
    }
    await this.finish(importId, claimed, 'completed');
  }

  private async recordRow(
    em: EntityManager,
    importId: string,
    error: { line: number; message: string } | null,
  ): Promise<void> {
    await this.store.rowDone(em, importId, error, MAX_LISTED_ERRORS);
  }

  /** Final status, the file's text dropped, and a notification to the user, in one transaction. */
  private async finish(
    importId: string,
    claimed: ClaimedImport,
    status: 'completed' | 'failed',
    reason?: string,
  ): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const updated = await this.store.finish(em, importId, status, reason ?? null);
      if (!updated || !claimed.user_id) return;
      const name = claimed.file_original_name ? ` of ${claimed.file_original_name}` : '';
      const message =
        status === 'completed'
          ? `Import${name} finished: ${updated.created_count} ${claimed.entity} created, ${updated.failed_count} row${updated.failed_count === 1 ? '' : 's'} refused.`
          : `Import${name} failed: ${reason}`;
      await this.notifications.notify(
        { userId: claimed.user_id, tag: 'import', message, data: [`/imports/${importId}`] },
        em,
      );
    });
    if (status === 'failed') this.logger.warn(`import ${importId} failed: ${reason}`);
  }

  /** Workspace, entity and CSV of a pre-upload or import request, checked. */
  /**
   * The import a request describes. `workspaceId`: the workspace `input.workspace` names,
   * located and write-checked by the declared access; undefined when the caller cannot see it.
   */
  private readRequest(
    input: ImportInput,
    files: Readonly<Record<string, readonly UploadedFile[]>>,
    workspaceId: string | undefined,
  ): ImportRequest {
    const body = { ...input } as Record<string, unknown>;
    if (!workspaceId)
      throw ValidationError.of('workspace', `Item not found for "${input.workspace}".`);
    const entityGiven = input.entity;
    const upload = csvUpload(files, body, 'content');
    let table: CsvTable;
    try {
      table = readCsvTable(upload.text, MAX_IMPORT_ROWS);
    } catch (error) {
      if (!(error instanceof CsvTableError)) throw error;
      const field = files.file?.length ? 'file' : 'content';
      throw ValidationError.of(
        field,
        error.line !== null && !error.message.includes(`Line ${error.line}`)
          ? `Line ${error.line}: ${error.message}`
          : error.message,
        ViolationCodes.invalid,
      );
    }
    const entity = (entityGiven || guessEntity(table.columns)) as ImportEntity;
    return { workspaceId, entity, upload, table, body };
  }
}

/** The mapping of a body: an object, or its JSON text (multipart forms); undefined when absent. */
function mappingOf(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw new BadRequestError('The "mapping" attribute must be a JSON object.');
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new BadRequestError(
      'The type of the "mapping" attribute must be "array", "' + typeof parsed + '" given.',
    );
  return parsed as Record<string, unknown>;
}

/** Why a row was refused, as a client would have been told; null for errors that are not about the row. */
export function rowError(error: unknown): string | null {
  if (error instanceof ValidationError)
    return error.violations
      .map((v) => (v.propertyPath ? `${v.propertyPath}: ${v.message}` : v.message))
      .join(' ');
  if (error instanceof ApiError && error.status < 500) return error.description;
  if (error instanceof QueryFailedError) {
    const code = (error.driverError as { code?: string }).code ?? '';
    if (code === '23505') return 'A record with the same unique value already exists.';
    if (code.startsWith('22') || code.startsWith('23')) return 'Invalid value in the row.';
  }
  return null;
}
