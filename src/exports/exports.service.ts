import { pausePoint } from '../common/pause-point';
import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Principal } from '../access/principal';
import { PrincipalLoader } from '../access/principal-loader';
import { HydraApi } from '../hydra/controller/hydra-api';
import { ConflictError, NotFoundError } from '../common/errors/api-errors';
import { QueryParams } from '../hydra/core/query-params';
import { writeCollectionCsv } from '../hydra/collection/csv-stream';
import { JobQueue } from '../jobs/job-queue';
import { runRecordedJob, type RecordedJob } from '../jobs/recorded-job';
import { FileStorage } from '../media/file-storage';
import { NotificationsService } from '../notifications/notifications.service';
import { Order } from '../orders/order.entity';
import { Shipment } from '../shipments/shipment.entity';
import type { ExportRequest } from './export-request';
import { ExportStore } from './export-store';
import { Export } from './export.entity';

export const EXPORT_QUEUE = 'exports.run';
export const EXPORT_NOTIFICATION_TAG = 'export';
/** Runs of an export that failed for reasons other than its input. */
export const MAX_EXPORT_ATTEMPTS = 3;

const TARGETS: Record<string, Function> = { shipments: Shipment, orders: Order };
/** The stored file's name under the export's own key (`<export id>/export.csv`). */
const EXPORT_FILE = 'export.csv';

interface ExportRow {
  id: string;
  user_id: string;
  workspace_id: string | null;
  entity: string;
  filters: Array<[string, string]>;
  attempts: number;
}

/**
 * Exports: the request is recorded as an `export` row and queued in one transaction; the
 * job runs the collection query with the export's filters and the user's memberships at
 * run time (the same SQL, columns and CSV rules as `GET /shipments` with `Accept: text/csv`,
 * every row rather than one page), stores the file through the FileStorage port and marks
 * the export done with its notification in one transaction. Exports of the caller's
 * workspaces they can no longer see fail.
 */
@Injectable()
export class ExportsService {
  private readonly logger = new Logger(ExportsService.name);

  constructor(
    private readonly api: HydraApi,
    private readonly dataSource: DataSource,
    private readonly jobs: JobQueue,
    private readonly principals: PrincipalLoader,
    private readonly storage: FileStorage,
    private readonly notifications: NotificationsService,
    private readonly store: ExportStore,
  ) {
    jobs.declareQueue({ name: EXPORT_QUEUE, retryLimit: MAX_EXPORT_ATTEMPTS, retryDelay: 5 });
    jobs.work<{ exportId: string }>({
      queue: EXPORT_QUEUE,
      handle: async (message) => {
        await this.run(message.exportId);
      },
    });
  }

  /** Records and queues an export; returns its id. */
  async queue(
    principal: Principal,
    request: ExportRequest,
    workspaceId: string | undefined,
  ): Promise<string> {
    return this.dataSource.transaction(async (em) => {
      const id = await this.store.create(em, {
        userId: principal.userId,
        workspaceId: workspaceId ?? null,
        entity: request.entity,
        format: request.format,
        filters: request.filters,
      });
      await this.jobs.send(EXPORT_QUEUE, { exportId: id }, { runner: em });
      return id;
    });
  }

  /** The job: claim the row, write the file, record and notify; idempotent. */
  async run(exportId: string): Promise<void> {
    await runRecordedJob<ExportRow>(
      this.dataSource,
      this.logger,
      EXPORT_JOB,
      exportId,
      async (row) => {
        let storedKey: string | null = null;
        try {
          const principal = await this.principals.forUser(row.user_id);
          if (!principal) return;
          if (row.workspace_id && !principal.workspaceIds.includes(row.workspace_id)) {
            throw new NotFoundError('The workspace is no longer accessible.');
          }
          const resource = this.api.resource(TARGETS[row.entity]);
          const query = (Array.isArray(row.filters) ? row.filters : [])
            .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
            .join('&');
          const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, 'Z');
          const fileName = `${row.entity}-${stamp}.csv`;
          // One key per export, whatever the attempt: a retry after a crash replaces the file
          // the dead attempt wrote instead of leaving it behind (the download keeps fileName).
          storedKey = `${row.id}/${EXPORT_FILE}`;
          // Rows stream from the cursor straight into the stored file: nothing holds it in memory.
          const count = await this.storage.saveStream(storedKey, (out) =>
            writeCollectionCsv(
              this.api.data,
              this.api.registry,
              {
                resource,
                principal,
                params: QueryParams.fromUrl(`?${query}`),
                scope: row.workspace_id ? [{ path: 'workspace', id: row.workspace_id }] : [],
              },
              out,
              { paginate: false },
            ),
          );
          const stored = await this.storage.open(storedKey);
          stored?.stream.destroy();
          const size = stored?.size ?? 0;
          const key = storedKey;
          await pausePoint('export.file.written');
          await this.dataSource.transaction(async (em) => {
            await this.store.done(em, row.id, {
              rowCount: count,
              size,
              fileName,
              storageKey: key,
            });
            await this.notifications.notify(
              {
                userId: row.user_id,
                tag: EXPORT_NOTIFICATION_TAG,
                message: `Your export of ${count} ${row.entity} is ready to download.`,
                data: [`/exports/${row.id}`],
              },
              em,
            );
          });
        } catch (error) {
          if (storedKey) await this.storage.remove(storedKey).catch(() => undefined);
          throw error;
        }
      },
      (row, reason, em) =>
        this.notifications.notify(
          {
            userId: row.user_id,
            tag: EXPORT_NOTIFICATION_TAG,
            message: `Your export of ${row.entity} failed: ${reason}`,
            data: [`/exports/${row.id}`],
          },
          em,
        ),
    );
  }

  /**
   * The file of an export of the caller: 404 for another user's or a missing export (and
   * for one of a workspace the caller no longer sees), 409 while it is not done.
   */
  async download(principal: Principal, id: string) {
    const visible = await this.api.data.visible(this.api.resource(Export), principal, id);
    if (!visible) throw new NotFoundError();
    const row = await this.store.find(this.dataSource, id);
    if (!row || (row.workspace_id && !principal.workspaceIds.includes(row.workspace_id))) {
      throw new NotFoundError();
    }
    if (row.status !== 'done' || !row.storage_key) {
      throw new ConflictError(
        row.status === 'failed'
          ? 'The export failed; it has no file.'
          : `The export is ${row.status}; it can be downloaded once it is done.`,
      );
    }
    const opened = await this.storage.open(row.storage_key);
    if (!opened) throw new NotFoundError();
    return { ...opened, fileName: row.file_name ?? 'export.csv' };
  }
}

const EXPORT_JOB: RecordedJob = {
  table: 'export',
  columns: 'id, user_id, workspace_id, entity, filters, attempts',
  maxAttempts: MAX_EXPORT_ATTEMPTS,
  label: 'export',
  unexpectedFailure: 'The export could not be completed.',
};
