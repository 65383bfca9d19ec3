import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiError, NotFoundError } from '../../hydra/errors/api-errors';
import { Clock } from '../clock';
import { adapterFor } from '../providers/remote/adapters';
import { ProviderCredentialsStore } from '../providers/remote/provider-credentials-store';
import { remoteTrackingState } from '../providers/remote/remote-tracking-state';
import { TrackingService, type PushedResult } from '../tracking-service/tracking.service';

/** What the receiver answers: 200 when something was applied, else 202. */
export interface PushReceipt {
  /** Updates the push carried. */
  received: number;
  /** Shipments updated (a number tracked in several workspaces counts each). */
  applied: number;
  /** Numbers no shipment tracked by these credentials has. */
  unknown: string[];
}

/**
 * Receives a provider's push for one credentials record: checks the provider's own signature
 * over the raw body (adapter.verifyPush), maps the payload (adapter.parsePush), finds the
 * shipments these credentials track under those numbers and applies the results through the
 * same writer as a refresh (TrackingService.applyPushed).
 */
@Injectable()
export class TrackingWebhooks {
  constructor(
    private readonly dataSource: DataSource,
    private readonly credentials: ProviderCredentialsStore,
    private readonly tracking: TrackingService,
    private readonly clock: Clock,
  ) {}

  async receive(
    provider: string,
    credentialsKey: string,
    headers: Readonly<Record<string, string | undefined>>,
    rawBody: Buffer,
  ): Promise<PushReceipt> {
    const adapter = adapterFor(provider);
    if (!adapter?.verifyPush || !adapter.parsePush) {
      throw new NotFoundError(`No tracking provider "${provider}" receives pushes.`);
    }
    const route = await this.credentials.byKey(credentialsKey);
    if (!route || route.credentials.type !== adapter.type) {
      throw new NotFoundError(`No ${provider} credentials "${credentialsKey}".`);
    }
    if (!adapter.verifyPush(route.credentials, { headers, rawBody })) {
      throw new ApiError(401, `The ${provider} signature of this push is missing or wrong.`);
    }
    let body: unknown;
    try {
      body = JSON.parse(rawBody.toString('utf8'));
    } catch {
      body = null;
    }
    const updates = adapter.parsePush(body);
    const numbers = [...new Set(updates.map((u) => u.trackingNumber))];
    const tracked = await remoteTrackingState.findByNumbers(
      this.dataSource,
      route.credentials.id,
      numbers,
    );
    const byNumber = new Map<string, string[]>();
    for (const t of tracked) {
      byNumber.set(t.trackingNumber, [...(byNumber.get(t.trackingNumber) ?? []), t.shipmentId]);
    }
    const pushed: PushedResult[] = updates
      .filter((u) => byNumber.has(u.trackingNumber))
      .map((u) => ({ shipmentIds: byNumber.get(u.trackingNumber)!, result: u.result }));
    const outcomes = pushed.length === 0 ? [] : await this.tracking.applyPushed(route, pushed);
    const applied = outcomes.filter((o) => o.applied).map((o) => o.shipmentId);
    await remoteTrackingState.markPushed(this.dataSource, applied, this.clock.now());
    return {
      received: updates.length,
      applied: applied.length,
      unknown: numbers.filter((n) => !byNumber.has(n)),
    };
  }
}
