import { Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { EntityManager } from 'typeorm';
import type { TrackingOutcome } from './tracking-writer';

/**
 * What another module does in the transaction of every applied tracking batch (a refresh, a
 * check, pushed checkpoints), after its shipments were written: delivery predictions. A
 * provider of that module marked `@ExtendsTrackingApplies()`, listed in its `@Module`, found at
 * start-up (the extending module depends on tracking, so tracking cannot inject it).
 */
export interface TrackingApplyExtension {
  afterApply(em: EntityManager, outcomes: readonly TrackingOutcome[], now: Date): Promise<void>;
}

/** Marks a provider as a TrackingApplyExtension (see there). */
export const ExtendsTrackingApplies = DiscoveryService.createDecorator<void>();

/** The extensions of applied tracking batches, found among the application's providers. */
@Injectable()
export class TrackingApplyExtensions implements OnModuleInit {
  private list: readonly TrackingApplyExtension[] = [];

  constructor(@Optional() private readonly discovery?: DiscoveryService) {}

  onModuleInit(): void {
    if (!this.discovery) return;
    const found = this.discovery
      .getProviders({ metadataKey: ExtendsTrackingApplies.KEY })
      .map((wrapper) => wrapper.instance as TrackingApplyExtension | undefined)
      .filter((instance): instance is TrackingApplyExtension => !!instance);
    this.list = [...new Set(found)];
  }

  async afterApply(
    em: EntityManager,
    outcomes: readonly TrackingOutcome[],
    now: Date,
  ): Promise<void> {
    for (const extension of this.list) await extension.afterApply(em, outcomes, now);
  }
}
