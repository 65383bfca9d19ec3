import { Injectable, Logger } from '@nestjs/common';
import { dayNumber, dayString } from '../analytics/carrier-performance';
import { CarrierPerformanceStore } from '../carrier-performance-store';
import { Clock } from '../../tracking/clock';
import { DEFAULT_RANGE_DAYS, type CarrierPerformanceInput } from './carrier-performance.input';
import type { CarrierPerformanceOutput } from './carrier-performance.output';

/** The carrier analytics of a workspace, read from the maintained aggregates. */
@Injectable()
export class CarrierPerformanceService {
  private readonly logger = new Logger(CarrierPerformanceService.name);

  constructor(
    private readonly store: CarrierPerformanceStore,
    private readonly clock: Clock,
  ) {}

  async read(
    workspaceId: string,
    input: CarrierPerformanceInput,
  ): Promise<CarrierPerformanceOutput[]> {
    const to = input.to ?? dayString(dayNumber(this.clock.now()));
    const from = input.from ?? dayString(dayNumber(to) - (DEFAULT_RANGE_DAYS - 1));
    const country = input.destinationCountry?.toUpperCase() ?? null;
    const byDestination = input.groupBy === 'destination' || country !== null;
    const { groups, busy } = await this.store.read(workspaceId, { from, to }, byDestination);
    if (busy.length > 0)
      // Folded after answering: atomic and safe to race (CarrierPerformanceStore.compact).
      void this.store
        .compact(workspaceId, busy)
        .catch((e: unknown) => this.logger.warn(`performance compaction failed: ${String(e)}`));
    return groups.filter((g) => country === null || g.destinationCountry === country);
  }
}
