import type { DataSource } from 'typeorm';
import { JOB_SCHEMA } from '../jobs/job-queue';
import { MAIL_QUEUE } from '../mail/mail-job';
import type { CredentialsCipher } from './credentials-cipher';

export interface RotationReport {
  /** Sealed values looked at. */
  examined: number;
  /** Re-sealed with the current key (or, in a dry run, that would be). */
  resealed: number;
  /** Ids of credentials (and `mail.send job <id>`s) whose sealed value no key opens. */
  unreadable: string[];
  keyId: string;
}

/** Where sealed values live: how to read a batch after an id, and how to write one back. */
interface SealedStore {
  /** How the report names an unreadable value of this store (credentials: the bare id). */
  label: (id: string) => string;
  /** `$1` the last id seen, `$2` the batch size: rows `id`, `sealed`, locked for the batch. */
  select: string;
  /** `$1` the id, `$2` the re-sealed value. */
  update: string;
  /** The zero id the walk starts after. */
  first: string;
}

const ZERO_UUID = '00000000-0000-0000-0000-000000000000';

/**
 * Sealed credential secrets: the credentials, and the copies of tracking credentials kept
 * until their numbers are stopped (retired_tracking_credentials), which must stay readable
 * once the previous key is dropped.
 */
const SEALED_TABLES: SealedStore[] = (['credentials', 'retired_tracking_credentials'] as const).map(
  (table) => ({
    label: (id) => id,
    select: `SELECT id, secrets_ciphertext AS sealed FROM ${table}
              WHERE id > $1 AND secrets_ciphertext IS NOT NULL
              ORDER BY id LIMIT $2 FOR UPDATE`,
    update: `UPDATE ${table} SET secrets_ciphertext = $2 WHERE id = $1`,
    first: ZERO_UUID,
  }),
);

/**
 * Mails waiting in their `mail.send` job (sealed whole with the key, src/mail/mail-job.ts):
 * those created, waiting for a retry or running, so that a mail queued before the rotation is
 * still sent once the previous key is dropped (a running job has read its data already: its
 * retry reads the new value).
 */
const MAIL_JOBS: SealedStore = {
  label: (id) => `${MAIL_QUEUE} job ${id}`,
  select: `SELECT id::text AS id, data->>'sealed' AS sealed FROM ${JOB_SCHEMA}.job
            WHERE name = '${MAIL_QUEUE}' AND state < 'completed' AND id > $1::uuid
              AND data ? 'sealed'
            ORDER BY id LIMIT $2 FOR UPDATE`,
  update: `UPDATE ${JOB_SCHEMA}.job SET data = jsonb_set(data, '{sealed}', to_jsonb($2::text))
            WHERE id = $1::uuid AND name = '${MAIL_QUEUE}'`,
  first: ZERO_UUID,
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
  const stores = [...SEALED_TABLES];
  // The job table exists once a node has started pg-boss.
  const [{ jobs }] = await db.query(`SELECT to_regclass('${JOB_SCHEMA}.job') IS NOT NULL AS jobs`);
  if (jobs) stores.push(MAIL_JOBS);
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
  store: SealedStore,
  report: RotationReport,
  options: RotationOptions,
): Promise<void> {
  let after = store.first;
  for (;;) {
    const rows: Array<{ id: string; sealed: string }> = await db.transaction(async (m) => {
      const batch: Array<{ id: string; sealed: string }> = await m.query(store.select, [
        after,
        options.batch ?? 500,
      ]);
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
        if (!options.dryRun) await m.query(store.update, [row.id, resealed]);
      }
      return batch;
    });
    if (rows.length === 0) return;
    report.examined += rows.length;
    after = rows[rows.length - 1].id;
    options.onProgress?.(report);
  }
}
