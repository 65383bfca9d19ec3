import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../config/app-config';
import { RATE_LIMIT_STORAGE } from '../../../rate-limit/rate-limit.module';
import { chunk } from '../../tracking-service/concurrency';
import type { TrackingResult } from '../tracking-provider';
import { TrackingProviderError } from '../tracking-provider-error';
import { FetchProviderHttp, type ProviderOutbound } from './fetch-provider-http';
import {
  ProviderCredentialsRejected,
  ProviderNumberNotRegistered,
  type ProviderCallContext,
  type ProviderTrackRequest,
} from './provider-adapter';
import { ProviderCredentialsStore, type TrackingCredentials } from './provider-credentials-store';
import { ProviderRateLimiter } from './provider-rate-limiter';
import { INSTANCE_CREDENTIALS_KEY, mayRouteRemotely, routeShipment } from './provider-routing';
import { MemoryProviderTokenCache } from './provider-token-cache';
import { pushSubscriptionDue } from './push-subscription-rules';
import { nextStopAttempt, STOP_LEASE_MS } from './remote-stop-rules';
import { remoteTrackingState, stopKey, type RemoteTrackingState } from './remote-tracking-state';
import { remoteTrackingStops, type ClaimedStop, type StopRequest } from './remote-tracking-stops';
import { RegistrationQueue, stopsTheKey } from './registration-queue';
import { retiredTrackingCredentials } from './retired-tracking-credentials';
import { type SqlRunner } from '../../../database/query';

/**
 * Numbers registered with an aggregator are updated by push; they are polled only when no
 * push came for this long (the safety net), instead of the engine's cadence.
 */
export const PUSH_SAFETY_POLL_MS = 24 * 3_600_000;
/** Rate of providers that declare none and credentials that set none. */
const DEFAULT_REQUESTS_PER_SECOND = 1;
/** Queued stops one upkeep pass sends at most. */
const STOPS_PER_PASS = 500;

/** Provider calls of one pass: their timeout, and the time they are made at. */
export interface RemoteCallOptions {
  timeoutMs: number;
  now: Date;
}

/** What a pass of stops came to. */
export interface StopReport {
  /** Stopped at the provider (or it had nothing left to stop). */
  stopped: number;
  /** Failed, tried again on a later pass. */
  retrying: number;
  /** Ended without a stop: a permanent error, or the last attempt failed. */
  givenUp: number;
  /** Still tracked by another shipment there, or their credentials cannot stop: dropped. */
  dropped: number;
}

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
    private readonly config: AppConfig,
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
   * does not know yet (aggregators), subscribes numbers to pushes that lapse (UPS Track Alert),
   * then tracks every number, in batches. After a 429, a timeout or a refusal the rest of the
   * group is not sent: it fails with the same error and is retried later (Retry-After honoured
   * by the caller's backoff). Numbers the shipments leave registered at other credentials (a
   * changed route or number) are stopped there.
   */
  async fetch(
    route: TrackingCredentials,
    shipments: readonly RemoteShipment[],
    options: RemoteCallOptions & { runner?: SqlRunner },
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
      const registering = unknown.filter((r) => !deferred.has(r.trackingNumber));
      // A stop still queued for one of them (it left these credentials and came back).
      await remoteTrackingStops.cancel(
        runner,
        key,
        registering.map((r) => r.trackingNumber),
      );
      const answers = await this.registrations.register(
        key,
        adapter.maxBatchSize,
        registering,
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
    const pushes = await this.subscribePushes(route, ctx, {
      requests: requests.filter(
        (r) => !failed.has(r.trackingNumber) && !deferred.has(r.trackingNumber),
      ),
      byNumber,
      state,
      now: options.now,
      halted: () => stopper !== null,
      noteFailure,
    });
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

    // Numbers these shipments leave registered at other credentials (or under an old number)
    // are stopped there.
    const leftBehind = await remoteTrackingState.mark(
      runner,
      shipments.map((s) => ({
        shipmentId: s.id,
        credentialsKey: key,
        trackingNumber: s.tracking_number,
        carrierCode: s.origin_carrier,
        registered: registered.has(s.tracking_number) && !unregistered.includes(s.tracking_number),
      })),
      options.now,
    );
    await remoteTrackingState.markPushSubscriptions(runner, pushes, options.now);
    await remoteTrackingStops.enqueue(runner, leftBehind, options.now);
    await this.sendStops(leftBehind, options);
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
   * Push subscriptions that lapse (adapter.pushSubscription, UPS Track Alert): subscribes the
   * numbers the credentials can have pushed whose subscription is missing or about to lapse
   * (pushSubscriptionDue), in batches shared with concurrent rounds. The numbers are tracked
   * whatever comes of it; a refusal is remembered (not asked again for a while), a 429 or an
   * outage ends the round like a tracking request's. Answers the shipments subscribed and
   * refused.
   */
  private async subscribePushes(
    route: TrackingCredentials,
    ctx: ProviderCallContext,
    round: {
      requests: readonly ProviderTrackRequest[];
      byNumber: ReadonlyMap<string, RemoteShipment[]>;
      state: ReadonlyMap<string, RemoteTrackingState>;
      now: Date;
      halted: () => boolean;
      noteFailure: (error: unknown) => Promise<void>;
    },
  ): Promise<{ subscribed: string[]; refused: string[] }> {
    const out = { subscribed: [] as string[], refused: [] as string[] };
    const subscription = route.adapter.pushSubscription;
    if (!subscription || round.halted()) return out;
    const key = route.credentials.id;
    const due = round.requests.filter(
      (r) =>
        subscription.accepts(route.credentials, r) &&
        round.byNumber.get(r.trackingNumber)!.some((s) => {
          const st = round.state.get(s.id);
          const current = st?.credentialsKey === key && st.trackingNumber === r.trackingNumber;
          return pushSubscriptionDue(
            current ? { subscribedAt: st.pushSubscribedAt, refusedAt: st.pushRefusedAt } : null,
            round.now,
            subscription.lifetimeMs,
          );
        }),
    );
    if (due.length === 0) return out;
    const answers = await this.registrations.register(
      `${key}:push`,
      subscription.maxBatchSize,
      due,
      (batch) => subscription.subscribe(ctx, batch),
    );
    for (const [number, problem] of answers) {
      const ids = round.byNumber.get(number)!.map((s) => s.id);
      if (problem === null) {
        out.subscribed.push(...ids);
      } else if (stopsTheKey(problem) && !(problem instanceof ProviderCredentialsRejected)) {
        await round.noteFailure(problem);
      } else {
        // Refused (the number, or the push product for these credentials): polled only.
        out.refused.push(...ids);
        this.logger.warn(
          `${route.adapter.type}: ${number} not subscribed to pushes: ${problem instanceof Error ? problem.message : String(problem)}`,
        );
      }
    }
    return out;
  }

  /**
   * Tells providers to stop tracking shipments that reached a final status (registered and
   * not stopped yet): the stops are queued, then sent at once; one that fails is retried on
   * later passes (`upkeep`) with backoff, a few times (remote-stop-rules.ts).
   */
  async stopFinal(
    route: TrackingCredentials,
    shipments: ReadonlyArray<{
      id: string;
      tracking_number: string;
      origin_carrier: string | null;
    }>,
    options: RemoteCallOptions & { runner?: SqlRunner },
  ): Promise<StopReport> {
    const { adapter } = route;
    if (!adapter.stop || shipments.length === 0) return emptyReport();
    const runner = options.runner ?? this.dataSource;
    const state = await remoteTrackingState.load(
      runner,
      shipments.map((s) => s.id),
    );
    const stops: StopRequest[] = [];
    for (const s of shipments) {
      const st = state.get(s.id);
      if (
        st?.credentialsKey === route.credentials.id &&
        st.trackingNumber === s.tracking_number &&
        st.registeredAt !== null &&
        st.stoppedAt === null
      ) {
        stops.push({
          credentialsKey: st.credentialsKey,
          trackingNumber: st.trackingNumber,
          carrierCode: st.carrierCode ?? s.origin_carrier,
        });
      }
    }
    await remoteTrackingStops.enqueue(runner, stops, options.now);
    return this.sendStops(stops, options, [route]);
  }

  /**
   * Shipments no remote provider tracks any more (their team's credentials route them
   * elsewhere, or their number is gone): their remote state is dropped and the numbers they
   * had registered are stopped there.
   */
  async release(shipmentIds: readonly string[], options: RemoteCallOptions): Promise<StopReport> {
    const stops = await remoteTrackingState.release(this.dataSource, shipmentIds);
    await remoteTrackingStops.enqueue(this.dataSource, stops, options.now);
    return this.sendStops(stops, options);
  }

  /**
   * A later pass: the queued stops that are due (failed before, or queued by a delete or a
   * credentials change and never sent); then retired credentials whose stops all ended are
   * forgotten.
   */
  async upkeep(options: RemoteCallOptions): Promise<StopReport> {
    const report = await this.sendStops(null, options);
    await retiredTrackingCredentials.sweep(this.dataSource);
    return report;
  }

  /**
   * Sends due queued stops: those of `only`, or any (up to STOPS_PER_PASS) when null. A number
   * another shipment still tracks at the same credentials is not stopped. Per number: stopped
   * (its registrations marked), retried later (nextStopAttempt), or given up (logged; a
   * permanent error ends the registration too, since the provider tracks nothing there).
   */
  private async sendStops(
    only: readonly StopRequest[] | null,
    options: RemoteCallOptions,
    known: readonly TrackingCredentials[] = [],
  ): Promise<StopReport> {
    const report = emptyReport();
    if (only !== null && only.length === 0) return report;
    const db = this.dataSource;
    const { now } = options;
    const claimed = await remoteTrackingStops.claim(db, {
      now,
      leaseUntil: new Date(now.getTime() + STOP_LEASE_MS),
      limit: only?.length ?? STOPS_PER_PASS,
      only: only ?? undefined,
    });
    if (claimed.length === 0) return report;
    const tracked = await remoteTrackingState.stillTracked(db, claimed);
    const byKey = new Map<string, ClaimedStop[]>();
    const dropped: ClaimedStop[] = [];
    for (const stop of claimed) {
      if (tracked.has(stopKey(stop.credentialsKey, stop.trackingNumber))) {
        dropped.push(stop);
        continue;
      }
      byKey.set(stop.credentialsKey, [...(byKey.get(stop.credentialsKey) ?? []), stop]);
    }
    for (const [key, stops] of byKey) {
      const route =
        known.find((r) => r.credentials.id === key) ?? (await this.credentials.forStops(key));
      if (!route?.adapter.stop) {
        // Credentials deleted, or a provider that cannot stop: nothing will stop them.
        dropped.push(...stops);
        continue;
      }
      const outcomes = await this.stopAt(route, stops, options);
      const stopped: string[] = [];
      const ended: ClaimedStop[] = [];
      for (const stop of stops) {
        const outcome = outcomes.get(stop.trackingNumber) ?? null;
        if (outcome === null) {
          report.stopped += 1;
          stopped.push(stop.trackingNumber);
          ended.push(stop);
          continue;
        }
        const retryAt = nextStopAttempt(stop.attempts, outcome, now);
        const reason = outcome instanceof Error ? outcome.message : String(outcome);
        if (retryAt !== null) {
          report.retrying += 1;
          await remoteTrackingStops.retryAt(db, stop, retryAt, reason);
          this.logger.warn(
            `${route.adapter.type}: stopping ${stop.trackingNumber} failed (attempt ${stop.attempts}), retried at ${retryAt.toISOString()}: ${reason}`,
          );
          continue;
        }
        report.givenUp += 1;
        ended.push(stop);
        // Permanent: the provider tracks nothing there (unknown number...): that ends it too.
        if (outcome instanceof TrackingProviderError && !outcome.transient) {
          stopped.push(stop.trackingNumber);
        }
        this.logger.warn(
          `${route.adapter.type}: gave up stopping ${stop.trackingNumber} after ${stop.attempts} attempt(s): ${reason}`,
        );
      }
      await remoteTrackingStops.finish(db, ended);
      await remoteTrackingState.markStopped(db, key, stopped, now);
    }
    report.dropped = dropped.length;
    await remoteTrackingStops.finish(db, dropped);
    return report;
  }

  /** One credentials record's stops, in batches; per number null (stopped) or the error. */
  private async stopAt(
    route: TrackingCredentials,
    stops: readonly StopRequest[],
    options: RemoteCallOptions,
  ): Promise<Map<string, unknown>> {
    const { adapter } = route;
    const key = route.credentials.id;
    const out = new Map<string, unknown>();
    let stopper: unknown = route.rejected
      ? new ProviderCredentialsRejected(
          adapter.type,
          401,
          `${adapter.type} refused the credentials ${credentialsRef(key)}`,
        )
      : null;
    const ctx = this.context(route, options);
    for (const batch of chunk(stops, adapter.maxBatchSize)) {
      if (stopper !== null) {
        for (const s of batch) out.set(s.trackingNumber, stopper);
        continue;
      }
      try {
        const answers = await adapter.stop!(
          ctx,
          batch.map((s) => ({ trackingNumber: s.trackingNumber, carrierCode: s.carrierCode })),
        );
        for (const s of batch) {
          const answer = answers.get(s.trackingNumber) ?? null;
          out.set(s.trackingNumber, answer);
          // A 429 or an outage met halfway: the later batches wait for the next pass.
          if (answer !== null && stopsTheKey(answer)) stopper = answer;
        }
      } catch (error) {
        for (const s of batch) out.set(s.trackingNumber, error);
        if (stopsTheKey(error)) stopper = error;
        if (error instanceof ProviderCredentialsRejected) {
          this.tokens.invalidate(key);
          await this.credentials.markRejected(key, error.message);
        }
      }
    }
    return out;
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
        outbound: this.outbound(route),
      }),
      tokens: this.tokens,
      now: options.now,
    };
  }

  /**
   * A team chose its credentials' `baseUrl`: any server but the provider's own is reached
   * through the outbound policy (public addresses only unless in
   * TRACKING_PROVIDER_ALLOWED_HOSTS), so the refresh cannot be pointed into the deployment's
   * network. The operator's TRACKING_PROVIDER goes where it is told.
   */
  private outbound(route: TrackingCredentials): ProviderOutbound | undefined {
    if (route.credentials.id === INSTANCE_CREDENTIALS_KEY) return undefined;
    return {
      trustedOrigins: [new URL(route.adapter.defaultBaseUrl).origin],
      policy: { allowedHosts: this.config.trackingProviderAllowedHosts },
    };
  }
}

function emptyReport(): StopReport {
  return { stopped: 0, retrying: 0, givenUp: 0, dropped: 0 };
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
