import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JobQueue } from '../../jobs/job-queue';
import { REROUTE_QUEUE } from '../providers/remote/credentials-retirement';
import { RemoteTracking } from '../providers/remote/remote-tracking';
import { remoteTrackingState } from '../providers/remote/remote-tracking-state';
import { TrackingService } from '../tracking-service/tracking.service';

/** Shipments read and re-tracked per step: a multiple of 40, 17TRACK's batch. */
const PAGE = 400;

/**
 * Applies a change of a team's tracking credentials at once instead of at each shipment's next
 * check (up to a day later): the `tracking.reroute` job, sent in the transaction of the change,
 * first sends the stops the change queued (deleted credentials, another account), then re-tracks
 * the team's shipments whose route is not their registration any more (another default, a
 * carrier override, no route, or a registration the change ended). Re-tracking registers them
 * at the new provider and stops them at the old one through the usual path (RemoteTracking).
 */
@Injectable()
export class TrackingRerouter {
  constructor(
    private readonly dataSource: DataSource,
    private readonly tracking: TrackingService,
    private readonly remote: RemoteTracking,
    jobs: JobQueue,
  ) {
    jobs.declareQueue({ name: REROUTE_QUEUE, retryLimit: 5, retryDelay: 30, retryBackoff: true });
    jobs.work<{ teamId: string }>({
      queue: REROUTE_QUEUE,
      handle: async ({ teamId }) => {
        await this.reroute(teamId);
      },
    });
  }

  /** Answers how many shipments moved. */
  async reroute(teamId: string): Promise<number> {
    // Stops first: a key rotated within one account stops its numbers before they register again.
    await this.tracking.remoteUpkeep();
    let moved = 0;
    let after: string | null = null;
    for (;;) {
      const page = await remoteTrackingState.ofTeam(this.dataSource, teamId, {
        after,
        limit: PAGE,
      });
      if (page.length === 0) return moved;
      after = page[page.length - 1].id;
      const routes = await this.remote.route(page);
      const routeOf = new Map<string, string>();
      for (const group of routes.groups) {
        for (const s of group.shipments) routeOf.set(s.id, group.route.credentials.id);
      }
      const ids = page
        .filter(
          (s) =>
            routeOf.get(s.id) !== s.state.credentialsKey ||
            s.state.trackingNumber !== s.tracking_number ||
            s.state.registeredAt === null,
        )
        .map((s) => s.id);
      await this.tracking.trackMany(ids);
      moved += ids.length;
      if (page.length < PAGE) return moved;
    }
  }
}
