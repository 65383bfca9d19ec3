import { ThrottlerStorageService } from '@nestjs/throttler';
import { parseArgs } from 'util';
import { findCarrier } from '../../tracking/carriers';
import { resolveCarrier } from '../../tracking/carriers/carrier-resolver';
import { computeTracking } from '../../tracking/engine';
import { TrackingProviderError } from '../../tracking/providers/tracking-provider-error';
import type { TrackingResult } from '../../tracking/providers/tracking-provider';
import { PROVIDER_ADAPTERS, adapterFor } from '../../tracking/providers/remote/adapters';
import { FetchProviderHttp } from '../../tracking/providers/remote/fetch-provider-http';
import {
  ProviderCredentialsRejected,
  type ProviderCallContext,
  type ProviderTrackRequest,
  type RemoteCheckpoint,
} from '../../tracking/providers/remote/provider-adapter';
import { ProviderRateLimiter } from '../../tracking/providers/remote/provider-rate-limiter';
import { MemoryProviderTokenCache } from '../../tracking/providers/remote/provider-token-cache';
import {
  routableCredentials,
  splitProviderSettings,
  type ProviderSetting,
} from '../../tracking/providers/remote/provider-settings';
import { CliUsageError, type CliCommand } from '../cli-command';

const TIMEOUT_MS = 30_000;

/**
 * `track <number> [--carrier C] [--provider P] [--set key=value ...] [--json]`: asks a tracking
 * provider about one number, as the refresh would (registering it first with aggregators), and
 * prints the answer mapped to our statuses. Provider and settings: `--provider` or
 * TRACKING_PROVIDER; settings from TRACKING_PROVIDER_CREDENTIALS (when it is that provider)
 * overridden by `--set` (e.g. `--set apiKey=... --set baseUrl=http://127.0.0.1:8080`). Needs
 * no database. Exit code 0 with an answer, 1 when the provider failed (with what the server
 * said, which tenants never see). The operator's own command: its URL is not checked against
 * the outbound policy, like TRACKING_PROVIDER's.
 */
export const trackCommand: CliCommand = {
  name: 'track',
  description: 'Ask a tracking provider about one number and print its answer, mapped',
  usage: '<number> [--carrier <code>] [--provider <type>] [--set <key>=<value> ...] [--json]',
  async run(args, context) {
    const { values, positionals } = parse(args);
    if (positionals.length !== 1) throw new CliUsageError('Give exactly one tracking number.');
    const number = positionals[0]
      .trim()
      .toUpperCase()
      .replace(/[\s-]+/g, '');
    const known = Object.keys(PROVIDER_ADAPTERS).join(', ');
    const provider = values.provider ?? context.config.trackingProvider;
    if (!provider) {
      throw new CliUsageError(`Give --provider (${known}) or set TRACKING_PROVIDER.`);
    }
    const adapter = adapterFor(provider);
    if (!adapter) throw new CliUsageError(`Unknown provider "${provider}" (known: ${known}).`);
    const carrier = carrierOf(number, values.carrier);

    const settings: Record<string, ProviderSetting> = {
      ...(provider === context.config.trackingProvider
        ? (context.config.trackingProviderCredentials ?? {})
        : {}),
      ...keyValues(values.set ?? []),
    };
    const { parameters, secrets } = splitProviderSettings(provider, settings);
    const route = routableCredentials('cli', adapter, parameters, secrets, new Date());
    const now = new Date();
    const storage = new ThrottlerStorageService();
    const ctx: ProviderCallContext = {
      credentials: route.credentials,
      http: new FetchProviderHttp({
        provider: adapter.type,
        budgetKey: 'cli',
        requestsPerSecond: adapter.requestsPerSecond ?? 1,
        timeoutMs: TIMEOUT_MS,
        limiter: new ProviderRateLimiter(storage),
      }),
      tokens: new MemoryProviderTokenCache(),
      now,
    };
    const request: ProviderTrackRequest = { trackingNumber: number, carrierCode: carrier };
    context.print(
      `${adapter.type} at ${route.credentials.baseUrl}: ${number} (carrier ${carrier ?? 'unknown'})`,
    );
    try {
      if (adapter.register) {
        const problem = (await adapter.register(ctx, [request])).get(number);
        if (problem) throw problem;
      }
      const outcome = (await adapter.track(ctx, [request])).get(number);
      if (outcome === undefined) throw TrackingProviderError.transient('no answer for the number');
      if (outcome instanceof TrackingProviderError) throw outcome;
      for (const line of describe(outcome, number, carrier, now, values.json === true)) {
        context.print(line);
      }
      return 0;
    } catch (error) {
      const kind =
        error instanceof ProviderCredentialsRejected
          ? 'credentials rejected'
          : error instanceof TrackingProviderError
            ? `${error.kind} error`
            : 'error';
      context.print(`${kind}: ${error instanceof Error ? error.message : String(error)}`);
      // The operator may read what the server said (tenants never do: see TrackingProviderError).
      const detail = (error as { detail?: unknown }).detail;
      if (typeof detail === 'string' && detail !== '') context.print(`provider said: ${detail}`);
      return 1;
    } finally {
      storage.onApplicationShutdown();
    }
  },
};

function parse(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: true,
      options: {
        carrier: { type: 'string' },
        provider: { type: 'string' },
        set: { type: 'string', multiple: true },
        json: { type: 'boolean' },
      },
    });
  } catch (error) {
    throw new CliUsageError((error as Error).message);
  }
}

function carrierOf(number: string, given: string | undefined): string | null {
  if (given !== undefined) {
    const carrier = findCarrier(given);
    if (!carrier) throw new CliUsageError(`Unknown carrier "${given}".`);
    return carrier.code;
  }
  const resolved = resolveCarrier(number);
  return 'carrier' in resolved ? resolved.carrier.code : null;
}

function keyValues(pairs: string[]): Record<string, ProviderSetting> {
  const out: Record<string, ProviderSetting> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new CliUsageError(`--set takes key=value, got "${pair}".`);
    const value = pair.slice(at + 1);
    out[pair.slice(0, at)] =
      value === 'true'
        ? true
        : value === 'false'
          ? false
          : /^\d+$/.test(value)
            ? Number(value)
            : value;
  }
  return out;
}

function describe(
  result: TrackingResult,
  number: string,
  carrier: string | null,
  now: Date,
  json: boolean,
): string[] {
  const computed = computeTracking({
    createdAt: now,
    trackingNumber: number,
    originCarrier: carrier,
    checkpoints: result.checkpoints,
    facts: result.facts,
    previous: null,
    now,
  });
  const checkpoints = [...result.checkpoints].sort(
    (a, b) => a.checkpointDate.getTime() - b.checkpointDate.getTime(),
  ) as RemoteCheckpoint[];
  if (json) {
    return [
      JSON.stringify(
        {
          trackingStatus: computed.trackingStatus,
          expectedDeliveryDate: computed.expectedDeliveryDate,
          destinationCarrier: computed.destinationCarrier,
          originCountryIso2: computed.originCountryIso2,
          destinationCountryIso2: computed.destinationCountryIso2,
          checkpoints: checkpoints.map((c) => ({
            checkpointDate: c.checkpointDate,
            status: c.status,
            rawStatus: c.rawStatus ?? null,
            info: c.info,
            location: c.location,
            countryIso2: c.countryIso2,
            carrier: c.carrierCode,
            rel: c.rel ?? null,
          })),
        },
        null,
        2,
      ),
    ];
  }
  return [
    `status: ${computed.trackingStatus}`,
    `expected delivery: ${computed.expectedDeliveryDate?.toISOString() ?? '-'}`,
    `destination carrier: ${computed.destinationCarrier ?? '-'}`,
    `countries: ${computed.originCountryIso2 ?? '?'} -> ${computed.destinationCountryIso2 ?? '?'}`,
    `checkpoints: ${checkpoints.length}`,
    ...checkpoints.map(
      (c) =>
        `  ${c.checkpointDate.toISOString()}  ${c.status.padEnd(21)} ${c.rawStatus ?? '-'}  ` +
        `${[c.location, c.countryIso2].filter(Boolean).join(', ') || '-'}  ${c.info}`,
    ),
  ];
}
