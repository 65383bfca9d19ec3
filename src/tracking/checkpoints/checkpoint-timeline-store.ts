import { Injectable } from '@nestjs/common';
import { query, type SqlRunner } from '../../database/query';

/** One stored checkpoint as delivery predictions read it: the carrier's time and the status. */
export interface TimelineCheckpoint {
  at: Date;
  status: string;
}

/**
 * The checkpoints of shipments as timelines (src/predictions reads the carrier's times, the
 * evidence of a journey), in one statement for a batch.
 */
@Injectable()
export class CheckpointTimelineStore {
  async timelines(
    runner: SqlRunner,
    shipmentIds: readonly string[],
  ): Promise<Map<string, TimelineCheckpoint[]>> {
    const out = new Map<string, TimelineCheckpoint[]>();
    if (shipmentIds.length === 0) return out;
    const rows = await query<{ shipment_id: string; checkpoint_date: Date; status: string }>(
      runner,
      `SELECT shipment_id, checkpoint_date, status FROM tracking_checkpoint
        WHERE shipment_id = ANY($1::uuid[]) AND checkpoint_date IS NOT NULL`,
      [shipmentIds],
    );
    for (const r of rows) {
      let list = out.get(r.shipment_id);
      if (!list) out.set(r.shipment_id, (list = []));
      list.push({ at: r.checkpoint_date, status: r.status });
    }
    return out;
  }
}
