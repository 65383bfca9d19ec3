import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { DataSource } from 'typeorm';
import type { SqlRunner } from '../../../events/sql-runner';
import { RATE_LIMIT_STORAGE } from '../../../rate-limit/rate-limit.module';
import { chunk } from '../../tracking-service/concurrency';
import type { TrackingResult } from '../tracking-provider';
import { TrackingProviderError } from '../tracking-provider-error';
import { FetchProviderHttp } from './fetch-provider-http';
import {
  ProviderCredentialsRejected,
  ProviderNumberNotRegistered,
  type ProviderCallContext,
  type ProviderTrackRequest,
} from './provider-adapter';
import { ProviderCredentialsStore, type TrackingCredentials } from './provider-credentials-store';
import { ProviderRateLimiter } from './provider-rate-limiter';
import { mayRouteRemotely, routeShipment } from './provider-routing';
import { MemoryProviderTokenCache } from './provider-token-cache';
import { remoteTrackingState } from './remote-tracking-state';
import { RegistrationQueue, stopsTheKey } from './registration-queue';

/**
 * Numbers registered with an aggregator are updated by push; they are polled only when no
 * push came for this long (the safety net), instead of the engine's cadence.
 */
export const PUSH_SAFETY_POLL_MS = 24 * 3_600_000;
/** Rate of providers that declare none and credentials that set none. */
const DEFAULT_REQUESTS_PER_SECOND = 1;

/** A shipment as remote tracking needs it. */
export interface RemoteShipment {
  id: string;
  tracking_number: string;
  origin_carrier: string | null;
  team_id: string;
}

/** What a provider answered for one shipment. */
export type RemoteFetched =
  | {
      result: TrackingResult;
      /** Registered with an aggregator: kept current by push, polled as a safety net only. */
      pushManaged: boolean;
    }
  | { error: unknown }
  /** Left for the next round, to register it in a full batch (see partialBatchToDefer). */
  | { deferred: true };

/** Shipments grouped by the credentials that track them. */
export interface RemoteRoutes {
  groups: Array<{ route: TrackingCredentials; shipments: RemoteShipment[] }>;
  /** Shipments no remote provider serves: the built-in providers track them. */
  local: string[];
}

/**
 * Tracks shipments through credentialed remote providers (src/tracking/providers/<provider>):
 * routes each shipment to its team's credentials (or the instance provider), registers numbers
 * once with aggregators, asks in batches of the adapter's `maxBatchSize` through the shared
 * per-credentials budget, and stops numbers that reached a final status. Never writes
 * tracking results itself: TrackingService applies them through the same writer as any
 * refresh or push, so a failure never loses what a shipment has.
 */
@Injectable()
export class RemoteTracking {
  private readonly logger = new Logger(RemoteTracking.name);
  private readonly tokens = new MemoryProviderTokenCache();
  private readonly registrations = new RegistrationQueue();
  private readonly limiter: ProviderRateLimiter;

  constructor(
    private readonly dataSource: DataSource,
    readonly credentials: ProviderCredentialsStore,
    @Inject(RATE_LIMIT_STORAGE) storage: ThrottlerStorage,
  ) {
    this.limiter = new ProviderRateLimiter(storage);
  }

  /** Which credentials track each shipment; shipments of teams without any stay local. */
  async route(
    shipments: readonly RemoteShipment[],
    runner: SqlRunner = this.dataSource,
  ): Promise<RemoteRoutes> {
    // Only shipments some credentials could track need their team's credentials read.
    const byTeam = await this.credentials.forTeams(
      shipments.filter((s) => mayRouteRemotely(s.origin_carrier)).map((s) => s.team_id),
      runner,
    );
    const instance = this.credentials.instance();
    const groups = new Map<string, { route: TrackingCredentials; shipments: RemoteShipment[] }>();
    const local: string[] = [];
    for (const shipment of shipments) {
      const route = routeShipment(
        shipment.origin_carrier,
        byTeam.get(shipment.team_id) ?? [],
        instance,
      ) as TrackingCredentials | null;
      if (!route) {
        local.push(shipment.id);
        continue;
      }
      const key = route.credentials.id;
      const group = groups.get(key) ?? { route, shipments: [] };
      group.shipments.push(shipment);
      groups.set(key, group);
    }
    return { groups: [...groups.values()], local };
  }

  /**
   * Asks the provider about shipments routed to one credentials record: registers numbers it
   * does not know yet (aggregators), then tracks every number, in batches. After a 429, a
   * timeout or a refusal the rest of the group is not sent: it fails with the same error and is
   * retried later (Retry-After honoured by the caller's backoff).
   */
  async fetch(
    route: TrackingCredentials,
    shipments: readonly RemoteShipment[],
    options: { timeoutMs: number; now: Date; runner?: SqlRunner },
  ): Promise<Map<string, RemoteFetched>> {
    // The caller's transaction when the shipments were just written in it (a create).
    const runner = options.runner ?? this.dataSource;
    const out = new Map<string, RemoteFetched>();
    const { adapter } = route;
    const key = route.credentials.id;
    if (route.rejected) {
      const error = TrackingProviderError.permanent(
        `${adapter.type} refused the credentials ${credentialsRef(key)}; update them to resume tracking`,
        { provider: adapter.type },
      );
      for (const s of shipments) out.set(s.id, { error });
      return out;
    }
    const ctx = this.context(route, options);
    const byNumber = new Map<string, RemoteShipment[]>();
    for (const s of shipments) {
      const list = byNumber.get(s.tracking_number) ?? [];
      list.push(s);
      byNumber.set(s.tracking_number, list);
    }
    const requests: ProviderTrackRequest[] = [...byNumber.entries()].map(([number, list]) => ({
      trackingNumber: number,
      carrierCode: list[0].origin_carrier,
    }));
    const failed = new Map<string, unknown>();
    let stopper: unknown = null;
    /** A failure about the key or the provider: later batches of this round are not sent. */
    const noteFailure = async (error: unknown) => {
      if (stopper !== null || !stopsTheKey(error)) return;
      stopper = error;
      if (error instanceof ProviderCredentialsRejected) {
        this.tokens.invalidate(key);
        await this.credentials.markRejected(key, error.message);
      }
    };
    const guard = async (batch: ProviderTrackRequest[], call: () => Promise<void>) => {
      if (stopper !== null) {
        for (const r of batch) failed.set(r.trackingNumber, stopper);
        return;
      }
      try {
        await call();
      } catch (error) {
        for (const r of batch) failed.set(r.trackingNumber, error);
        await noteFailure(error);
      }
    };

    const state = await remoteTrackingState.load(
      runner,
      shipments.map((s) => s.id),
    );
    const registered = new Set<string>();
    const deferred = new Set<string>();
    if (adapter.register) {
      const register = adapter.register.bind(adapter);
      const unknown = requests.filter((r) =>
        byNumber.get(r.trackingNumber)!.some((s) => {
          const st = state.get(s.id);
          return (
            !st ||
            st.credentialsKey !== key ||
            st.trackingNumber !== r.trackingNumber ||
            st.registeredAt === null
          );
        }),
      );
      for (const r of requests) if (!unknown.includes(r)) registered.add(r.trackingNumber);
      // Numbers seen before (deferred once) first, so none waits twice.
      const seenBefore = (r: ProviderTrackRequest) =>
        byNumber.get(r.trackingNumber)!.some((s) => state.get(s.id)?.credentialsKey === key);
      unknown.sort((a, b) => Number(seenBefore(b)) - Number(seenBefore(a)));
      for (const r of partialBatchToDefer(unknown, adapter.maxBatchSize, seenBefore)) {
        deferred.add(r.trackingNumber);
      }
      const answers = await this.registrations.register(
        key,
        adapter.maxBatchSize,
        unknown.filter((r) => !deferred.has(r.trackingNumber)),
        (batch) => register(ctx, batch),
      );
      for (const [number, problem] of answers) {
        if (problem === null) {
          registered.add(number);
        } else {
          failed.set(number, problem);
          await noteFailure(problem);
        }
      }
    }
    const toTrack = requests.filter(
      (r) => !failed.has(r.trackingNumber) && !deferred.has(r.trackingNumber),
    );
    const results = new Map<string, TrackingResult>();
    const unregistered: string[] = [];
    for (const batch of chunk(toTrack, adapter.maxBatchSize)) {
      await guard(batch, async () => {
        const answers = await adapter.track(ctx, batch);
        for (const r of batch) {
          const outcome = answers.get(r.trackingNumber);
          if (outcome === undefined) {
            failed.set(
              r.trackingNumber,
              TrackingProviderError.transient(
                `${adapter.type} did not answer for ${r.trackingNumber}`,
              ),
            );
          } else if (outcome instanceof TrackingProviderError) {
            failed.set(r.trackingNumber, outcome);
            if (outcome instanceof ProviderNumberNotRegistered) unregistered.push(r.trackingNumber);
          } else {
            results.set(r.trackingNumber, outcome);
          }
        }
      });
    }

    await remoteTrackingState.mark(
      runner,
      shipments.map((s) => ({
        shipmentId: s.id,
        credentialsKey: key,
        trackingNumber: s.tracking_number,
        registered: registered.has(s.tracking_number) && !unregistered.includes(s.tracking_number),
      })),
      options.now,
    );
    await remoteTrackingState.forgetRegistration(
      runner,
      unregistered.flatMap((n) => byNumber.get(n)!.map((s) => s.id)),
    );

    const pushManaged = adapter.register !== undefined;
    for (const s of shipments) {
      const result = results.get(s.tracking_number);
      if (deferred.has(s.tracking_number)) out.set(s.id, { deferred: true });
      else if (result) out.set(s.id, { result, pushManaged });
      else out.set(s.id, { error: failed.get(s.tracking_number) });
    }
    return out;
  }

  /**
   * Tells providers to stop tracking shipments that reached a final status (registered and
   * not stopped yet). A failure is logged: the number then simply ages out at the provider.
   */
  async stopFinal(
    route: TrackingCredentials,
    shipments: ReadonlyArray<{
      id: string;
      tracking_number: string;
      origin_carrier: string | null;
    }>,
    options: { timeoutMs: number; now: Date; runner?: SqlRunner },
  ): Promise<void> {
    const { adapter } = route;
    if (!adapter.stop || route.rejected || shipments.length === 0) return;
    const stop = adapter.stop.bind(adapter);
    const runner = options.runner ?? this.dataSource;
    const state = await remoteTrackingState.load(
      runner,
      shipments.map((s) => s.id),
    );
    const due = shipments.filter((s) => {
      const st = state.get(s.id);
      return (
        st?.credentialsKey === route.credentials.id &&
        st.trackingNumber === s.tracking_number &&
        st.registeredAt !== null &&
        st.stoppedAt === null
      );
    });
    const ctx = this.context(route, options);
    for (const batch of chunk(due, adapter.maxBatchSize)) {
      try {
        await stop(
          ctx,
          batch.map((s) => ({ trackingNumber: s.tracking_number, carrierCode: s.origin_carrier })),
        );
        await remoteTrackingState.markStopped(
          runner,
          batch.map((s) => s.id),
          options.now,
        );
      } catch (error) {
        if (error instanceof ProviderCredentialsRejected) {
          await this.credentials.markRejected(route.credentials.id, error.message);
        }
        this.logger.warn(
          `${adapter.type}: stopping ${batch.length} number(s) failed: ${String(error)}`,
        );
        return;
      }
    }
  }

  /** The call context of one credentials record (its budget, its token cache entry). */
  context(
    route: TrackingCredentials,
    options: { timeoutMs: number; now: Date },
  ): ProviderCallContext {
    const configured = Number(route.credentials.parameters.requestsPerSecond);
    const requestsPerSecond =
      Number.isFinite(configured) && configured > 0
        ? configured
        : (route.adapter.requestsPerSecond ?? DEFAULT_REQUESTS_PER_SECOND);
    return {
      credentials: route.credentials,
      http: new FetchProviderHttp({
        provider: route.adapter.type,
        budgetKey: route.credentials.id,
        requestsPerSecond,
        timeoutMs: options.timeoutMs,
        limiter: this.limiter,
      }),
      tokens: this.tokens,
      now: options.now,
    };
  }
}

function credentialsRef(key: string): string {
  return key === 'instance' ? '(TRACKING_PROVIDER)' : `/credentials/${key}`;
}

/**
 * Registrations are paid per request, so they go in full batches: when a round has more new
 * numbers than one batch, the partial last batch waits for a later round (due again a minute
 * later, REGISTRATION_DEFER_MS, where the leftovers of other rounds and nodes join it). Only numbers never seen before wait, and only once; a
 * round with less than one batch registers what it has (a create, a small team, the tail).
 */
export function partialBatchToDefer<T>(
  unknown: readonly T[],
  batchSize: number,
  seenBefore: (item: T) => boolean,
): T[] {
  const remainder = unknown.length % batchSize;
  if (unknown.length <= batchSize || remainder === 0) return [];
  return unknown.slice(unknown.length - remainder).filter((item) => !seenBefore(item));
}
