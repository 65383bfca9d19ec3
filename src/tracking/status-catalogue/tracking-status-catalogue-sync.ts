import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TRACKING_STATUSES, trackingStatusPhase } from '../statuses';

const STATUS_SYNC_LOCK_KEY = 727_274_102;

/** Makes the `tracking_status` table mirror TRACKING_STATUSES at start-up (idempotent). */
@Injectable()
export class TrackingStatusCatalogueSync implements OnModuleInit {
  constructor(private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    await this.sync();
  }

  async sync(): Promise<void> {
    const rows = TRACKING_STATUSES.map((s, position) => ({
      code: s.code,
      title: s.title,
      description: s.description,
      phase: trackingStatusPhase(s.code),
      position,
    }));
    await this.dataSource.transaction(async (em) => {
      await em.query('SELECT pg_advisory_xact_lock($1)', [STATUS_SYNC_LOCK_KEY]);
      await em.query(
        `INSERT INTO tracking_status AS s (code, title, description, phase, position)
         SELECT x.code, x.title, x.description, x.phase, x.position
           FROM jsonb_to_recordset($1::jsonb)
             AS x(code text, title text, description text, phase text, position int)
         ORDER BY x.code
         ON CONFLICT (code) DO UPDATE SET title = EXCLUDED.title,
           description = EXCLUDED.description, phase = EXCLUDED.phase, position = EXCLUDED.position
         WHERE (s.title, s.description, s.phase, s.position)
               IS DISTINCT FROM (EXCLUDED.title, EXCLUDED.description, EXCLUDED.phase, EXCLUDED.position)`,
        [JSON.stringify(rows)],
      );
      await em.query(`DELETE FROM tracking_status WHERE NOT (code = ANY($1::text[]))`, [
        rows.map((r) => r.code),
      ]);
    });
  }
}
