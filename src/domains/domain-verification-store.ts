import { Injectable } from '@nestjs/common';
import { execute, queryOne, type SqlRunner } from '../database/query';

/** One recorded check of a custom domain. */
export interface DomainCheckRecord {
  workspaceId: string;
  trackingPageId: string;
  domain: string;
  accessible: boolean;
  ssl: boolean;
  verified: boolean;
  method: string | null;
  /** The DNS answers the verdict was drawn from. */
  records: unknown;
  checkedBy: string;
}

/** The domain_verification table's SQL, and the per-domain lock of its writers. */
@Injectable()
export class DomainVerificationStore {
  /** Serialises the checks of one domain until the transaction ends. */
  async lockDomain(runner: SqlRunner, domain: string): Promise<void> {
    await execute(runner, `SELECT pg_advisory_xact_lock(hashtext('custom-domain:' || $1::text))`, [
      domain,
    ]);
  }

  /** Records a check; answers when it was made. */
  async record(runner: SqlRunner, check: DomainCheckRecord): Promise<Date> {
    const row = await queryOne<{ checked_at: Date }>(
      runner,
      `INSERT INTO domain_verification
         (workspace_id, tracking_page_id, domain, accessible, ssl, verified, method, records, checked_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING checked_at`,
      [
        check.workspaceId,
        check.trackingPageId,
        check.domain,
        check.accessible,
        check.ssl,
        check.verified,
        check.method,
        JSON.stringify(check.records),
        check.checkedBy,
      ],
    );
    return row!.checked_at;
  }
}
