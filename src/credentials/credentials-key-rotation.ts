import type { DataSource } from 'typeorm';
import type { SqlRunner } from '../database/query';
import { JobDataStore } from '../jobs/job-data-store';
import { MAIL_QUEUE } from '../mail/mail-job';
import { retiredTrackingCredentials } from '../tracking/providers/remote/retired-tracking-credentials';
import type { CredentialsCipher } from './credentials-cipher';
import { CredentialsStore } from './credentials-store';

export interface RotationReport {
  /** Sealed values looked at. */
  examined: number;
  /** Re-sealed with the current key (or, in a dry run, that would be). */
  resealed: number;
  /** Ids of credentials (and `mail.send job <id>`s) whose sealed value no key opens. */
  unreadable: string[];
  keyId: string;
}

/** Where sealed values live, as their owner's store walks them. */
interface SealedValues {
  /** How the report names an unreadable value of this store (credentials: the bare id). */
  label: (id: string) => string;
  /** Up to `limit` values after the id `after` (the zero id first), locked for the batch. */
  after(
    runner: SqlRunner,
    after: string,
    limit: number,
  ): Promise<Array<{ id: string; sealed: string }>>;
  /** Writes back one re-sealed value. */
  reseal(runner: SqlRunner, id: string, sealed: string): Promise<void>;
}

const ZERO_UUID = '00000000-0000-0000-0000-000000000000';

const credentials = new CredentialsStore();
const jobs = new JobDataStore();

/**
 * Sealed credential secrets: the credentials, and the copies of tracking credentials kept
 * until their numbers are stopped (retired_tracking_credentials), which must stay readable
 * once the previous key is dropped.
 */
const SEALED_SECRETS: SealedValues[] = [
  {
    label: (id) => id,
    after: (runner, after, limit) => credentials.sealedAfter(runner, after, limit),
    reseal: (runner, id, sealed) => credentials.reseal(runner, id, sealed),
  },
  {
    label: (id) => id,
    after: (runner, after, limit) => retiredTrackingCredentials.sealedAfter(runner, after, limit),
    reseal: (runner, id, sealed) => retiredTrackingCredentials.reseal(runner, id, sealed),
  },
];

/**
 * Mails waiting in their `mail.send` job (sealed whole with the key, src/mail/mail-job.ts):
 * those created, waiting for a retry or running, so that a mail queued before the rotation is
 * still sent once the previous key is dropped (a running job has read its data already: its
 * retry reads the new value).
 */
const MAIL_JOBS: SealedValues = {
  label: (id) => `${MAIL_QUEUE} job ${id}`,
  after: (runner, after, limit) => jobs.sealedAfter(runner, MAIL_QUEUE, after, limit),
  reseal: (runner, id, sealed) => jobs.reseal(runner, MAIL_QUEUE, id, sealed),
};

/**
 * Re-seals every stored credential secret, and every mail still queued, with the current key,
 * in batches of rows locked for the batch's transaction (walked by id, so a value no key
 * opens is reported once and the walk goes on). Values already under the current key are
 * left alone, so the command can be re-run after an interruption. Rotation: deploy every
 * node with the new CREDENTIALS_ENCRYPTION_KEY and the old one in
 * CREDENTIALS_ENCRYPTION_KEY_PREVIOUS, run this, then drop the previous key.
 */
export async function rotateCredentialsKey(
  db: DataSource,
  cipher: CredentialsCipher,
  options: RotationOptions = {},
): Promise<RotationReport> {
  const report: RotationReport = { examined: 0, resealed: 0, unreadable: [], keyId: cipher.keyId };
  const stores = [...SEALED_SECRETS];
  // The job table exists once a node has started pg-boss.
  if (await jobs.jobTableExists(db)) stores.push(MAIL_JOBS);
  for (const store of stores) await rotateStore(db, cipher, store, report, options);
  return report;
}

interface RotationOptions {
  batch?: number;
  dryRun?: boolean;
  onProgress?: (report: RotationReport) => void;
}

async function rotateStore(
  db: DataSource,
  cipher: CredentialsCipher,
  store: SealedValues,
  report: RotationReport,
  options: RotationOptions,
): Promise<void> {
  let after = ZERO_UUID;
  for (;;) {
    const rows: Array<{ id: string; sealed: string }> = await db.transaction(async (m) => {
      const batch = await store.after(m, after, options.batch ?? 500);
      for (const row of batch) {
        let resealed: string | null;
        try {
          resealed = cipher.reseal(row.sealed);
        } catch {
          report.unreadable.push(store.label(row.id));
          continue;
        }
        if (resealed === null) continue;
        report.resealed++;
        if (!options.dryRun) await store.reseal(m, row.id, resealed);
      }
      return batch;
    });
    if (rows.length === 0) return;
    report.examined += rows.length;
    after = rows[rows.length - 1].id;
    options.onProgress?.(report);
  }
}
