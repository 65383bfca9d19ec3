import type { DataSource } from 'typeorm';
import type { CredentialsCipher } from './credentials-cipher';

export interface RotationReport {
  /** Sealed values looked at. */
  examined: number;
  /** Re-sealed with the current key (or, in a dry run, that would be). */
  resealed: number;
  /** Ids of credentials whose secrets no configured key opens. */
  unreadable: string[];
  keyId: string;
}

/**
 * Tables holding sealed credential secrets: the credentials, and the copies of tracking
 * credentials kept until their numbers are stopped (retired_tracking_credentials), which must
 * stay readable once the previous key is dropped.
 */
const SEALED_TABLES = ['credentials', 'retired_tracking_credentials'] as const;

/**
 * Re-seals every stored credential secret with the current key, in batches of rows locked
 * for the batch's transaction (walked by id, so a value no key opens is reported once and
 * the walk goes on). Values already under the current key are left alone, so the command
 * can be re-run after an interruption. Rotation: deploy every node with the new
 * CREDENTIALS_ENCRYPTION_KEY and the old one in CREDENTIALS_ENCRYPTION_KEY_PREVIOUS, run
 * this, then drop the previous key.
 */
export async function rotateCredentialsKey(
  db: DataSource,
  cipher: CredentialsCipher,
  options: { batch?: number; dryRun?: boolean; onProgress?: (report: RotationReport) => void } = {},
): Promise<RotationReport> {
  const report: RotationReport = { examined: 0, resealed: 0, unreadable: [], keyId: cipher.keyId };
  for (const table of SEALED_TABLES) await rotateTable(db, cipher, table, report, options);
  return report;
}

async function rotateTable(
  db: DataSource,
  cipher: CredentialsCipher,
  table: (typeof SEALED_TABLES)[number],
  report: RotationReport,
  options: { batch?: number; dryRun?: boolean; onProgress?: (report: RotationReport) => void },
): Promise<void> {
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows: Array<{ id: string; secrets_ciphertext: string }> = await db.transaction(
      async (m) => {
        const batch = await m.query(
          `SELECT id, secrets_ciphertext FROM ${table}
            WHERE id > $1 AND secrets_ciphertext IS NOT NULL
            ORDER BY id LIMIT $2 FOR UPDATE`,
          [after, options.batch ?? 500],
        );
        for (const row of batch as Array<{ id: string; secrets_ciphertext: string }>) {
          let resealed: string | null;
          try {
            resealed = cipher.reseal(row.secrets_ciphertext);
          } catch {
            report.unreadable.push(row.id);
            continue;
          }
          if (resealed === null) continue;
          report.resealed++;
          if (!options.dryRun) {
            await m.query(`UPDATE ${table} SET secrets_ciphertext = $2 WHERE id = $1`, [
              row.id,
              resealed,
            ]);
          }
        }
        return batch;
      },
    );
    if (rows.length === 0) return;
    report.examined += rows.length;
    after = rows[rows.length - 1].id;
    options.onProgress?.(report);
  }
}
