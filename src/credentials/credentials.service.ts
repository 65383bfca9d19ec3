import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { EntityManager } from 'typeorm';
import type { Principal } from '../access/principal';
import { literalRefusal } from '../common/outbound/outbound-target';
import { AppConfig } from '../config/app-config';
import {
  ForbiddenError,
  ValidationError,
  Violation,
  ViolationCodes,
} from '../common/errors/api-errors';
import { ResourceRegistry } from '../hydra/metadata/resource-registry';
import type { ResourceHooks, WriteContext } from '../hydra/core/resource-hooks';
import { ResourceWriter } from '../hydra/write/resource-writer';
import { mergeSecrets, readParameters } from './credential-input';
import { credentialType, destinationChanged } from './credential-types';
import { CredentialsCipher } from './credentials-cipher';
import { CredentialsStore, type StoredCredentialsRow } from './credentials-store';
import { CREDENTIALS_USES, type CredentialsUse } from './credentials-use';
import { Credentials } from './credentials.entity';
import { JobQueue } from '../jobs/job-queue';
import {
  isTrackingType,
  retireTrackingAccount,
  REROUTE_QUEUE,
  trackingAccountChanged,
  type CredentialsSettings,
} from '../tracking/providers/remote/credentials-retirement';
import { maskSecret } from './secret-box';
import type { SqlRunner } from '../database/query';

/** Credentials as their users (webhook delivery, mail) need them: secrets in clear. */
export interface OpenedCredentials {
  id: string;
  teamId: string;
  type: string;
  parameters: Record<string, unknown>;
  secrets: Record<string, string>;
  /** When a service refused them (401/403); null while they work. */
  rejectedAt?: Date | null;
}

/** What one credentials write carries between its steps (`ctx.state`). */
export interface CredentialsWrite {
  /** The row as stored before a PUT or DELETE; undefined for a create. */
  stored: StoredCredentialsRow | undefined;
  /** What prepare found wrong in the body, reported by validate. */
  violations: Violation[];
}

/**
 * Credential rules: `type` fixes which parameters and secrets a record may hold (unknown
 * members are 422, values are type-checked: credential-input.ts); secrets are merged (PUT
 * keeps members left out, null removes one), sealed with the deployment key and replaced by
 * masked hints, so neither the stored row's readable columns nor any answer carries them. A
 * PUT that changes where the credentials connect (the type's `destination` parameters) starts
 * from no secrets: only those it gives are kept. Only the team's owners and admins create,
 * change or delete credentials (members read them, masked). Credentials that another module
 * uses (CREDENTIALS_USES: workflows, a workspace's SMTP server) cannot be deleted.
 */
@Injectable()
export class CredentialsService implements ResourceHooks<Credentials, CredentialsWrite> {
  private uses?: CredentialsUse[];

  constructor(
    private readonly cipher: CredentialsCipher,
    private readonly registry: ResourceRegistry,
    private readonly writer: ResourceWriter,
    private readonly jobs: JobQueue,
    private readonly config: AppConfig,
    private readonly store: CredentialsStore,
    private readonly moduleRef: ModuleRef,
  ) {}

  async begin(credentials: Credentials, ctx: WriteContext<undefined>): Promise<CredentialsWrite> {
    const stored = credentials.id ? await this.store.find(ctx.em, credentials.id) : undefined;
    return { stored, violations: [] };
  }

  async prepare(credentials: Credentials, ctx: WriteContext<CredentialsWrite>): Promise<void> {
    const { stored, violations } = ctx.state;
    assertTeamAdmin(credentials.team?.id ?? stored?.team_id, ctx);
    const spec = credentialType(credentials.type);
    if (ctx.operation === 'post') {
      credentials.parameters ??= {};
      credentials.secrets ??= {};
      credentials.secretsCiphertext = null;
    }
    if (!spec) return; // @Choice reports the type
    // New settings deserve a new chance: a provider that refused them is asked again.
    credentials.rejectedAt = null;
    credentials.rejectionReason = null;
    credentials.tags = [...spec.tags];
    credentials.visible = spec.visible;

    // The denormalizer has already copied the body's parameters: compare with the row.
    const previousParameters = stored?.parameters ?? {};
    if ('parameters' in ctx.body)
      credentials.parameters = readParameters(
        spec,
        ctx.body.parameters,
        violations,
        (kind, value) => this.destinationRefusal(kind, value),
      );

    const moved =
      ctx.operation === 'put' &&
      destinationChanged(spec, previousParameters, credentials.parameters ?? {});
    const current = moved ? {} : this.cipher.openSecrets(credentials.secretsCiphertext ?? null);
    if ('secrets' in ctx.body) mergeSecrets(spec, current, ctx.body.secrets, violations);
    credentials.secretsCiphertext = this.cipher.sealSecrets(current);
    credentials.secrets = Object.fromEntries(
      Object.entries(current).map(([key, value]) => [key, maskSecret(value)]),
    );
  }

  /**
   * A provider `baseUrl` or a store's address naming a private address or a local name is
   * refused when written (unless in TRACKING_PROVIDER_ALLOWED_HOSTS, STORE_SYNC_ALLOWED_HOSTS);
   * names are checked again, resolved, at every call (src/common/outbound), where DNS may say
   * otherwise. A shop domain carries a port only for an allow-listed host (a test's fake).
   */
  private destinationRefusal(kind: string, value: unknown): string | null {
    if (typeof value !== 'string' || value === '') return null;
    if (kind === 'baseUrl' || kind === 'storeUrl') {
      const allowedHosts =
        kind === 'baseUrl'
          ? this.config.trackingProviderAllowedHosts
          : this.config.storeSyncAllowedHosts;
      const refused = literalRefusal(new URL(value).hostname, { allowedHosts });
      return refused ? 'This URL points to a private, loopback or link-local address.' : null;
    }
    if (kind === 'shopDomain') {
      const [host, port] = value.toLowerCase().split(':');
      const allowedHosts = this.config.storeSyncAllowedHosts;
      if (port !== undefined && !allowedHosts.includes(host))
        return 'This value is not a valid shop domain.';
      if (literalRefusal(host, { allowedHosts }))
        return 'This shop domain points to a private, loopback or link-local address.';
    }
    return null;
  }

  validate(_credentials: Credentials, ctx: WriteContext<CredentialsWrite>): Violation[] {
    return ctx.state.violations;
  }

  /**
   * Tracking credentials written: numbers registered with the account they pointed at before
   * (another type, server or key) are queued for stopping there, and a job applies the new
   * routing to the team's shipments at once (tracking/refresh/tracking-rerouter.ts), so that
   * neither waits for each shipment's next check.
   */
  async afterWrite(credentials: Credentials, ctx: WriteContext<CredentialsWrite>): Promise<void> {
    const before = ctx.state.stored && this.opened(ctx.state.stored);
    if (!isTrackingType(credentials.type) && !isTrackingType(before?.type)) return;
    const after = {
      type: credentials.type,
      parameters: credentials.parameters ?? {},
      secrets: this.cipher.openSecrets(credentials.secretsCiphertext ?? null),
    };
    if (before && trackingAccountChanged(before, after))
      await retireTrackingAccount(ctx.em, before);
    await this.reroute(credentials.team?.id ?? before?.teamId, ctx);
  }

  async beforeRemove(_credentials: Credentials, ctx: WriteContext<CredentialsWrite>) {
    const { stored } = ctx.state;
    assertTeamAdmin(stored?.team_id, ctx);
    if (stored) await this.refuseRemovalInUse(stored, ctx);
    if (stored && isTrackingType(stored.type)) {
      // The secrets go with the row: a copy is kept until its numbers are stopped.
      await retireTrackingAccount(ctx.em, this.opened(stored));
      await this.reroute(stored.team_id, ctx);
    }
  }

  private async reroute(teamId: string | undefined, ctx: WriteContext): Promise<void> {
    if (teamId) await this.jobs.send(REROUTE_QUEUE, { teamId }, { runner: ctx.em });
  }

  private opened(stored: StoredCredentialsRow): StoredCredentials {
    return {
      id: stored.id,
      teamId: stored.team_id,
      type: stored.type,
      parameters: stored.parameters ?? {},
      secrets: this.cipher.openSecrets(stored.secrets_ciphertext),
      secretsCiphertext: stored.secrets_ciphertext,
    };
  }

  /** Credentials another module uses (CREDENTIALS_USES) cannot go: 422 with its reason. */
  private async refuseRemovalInUse(stored: StoredCredentialsRow, ctx: WriteContext<unknown>) {
    this.uses ??= this.moduleRef.get<CredentialsUse>(CREDENTIALS_USES, {
      strict: false,
      each: true,
    });
    for (const use of this.uses) {
      const refusal = await use.refusal(ctx.em, { id: stored.id, teamId: stored.team_id });
      if (refusal) throw ValidationError.of('id', refusal, ViolationCodes.invalid);
    }
  }

  /**
   * Creates credentials from the object a workflow POST carries (`{type, team, parameters,
   * secrets}`), through the same pipeline, in the workflow's transaction; `team` defaults to
   * the workspace's team. Violations are reported under `credentials.`.
   */
  createNested(
    em: EntityManager,
    input: Record<string, unknown>,
    defaultTeamId: string,
    principal: Principal,
  ): Promise<string> {
    const body = { ...input };
    if (body.team === undefined || body.team === null) body.team = `/teams/${defaultTeamId}`;
    return this.writer.createWithin(
      em,
      this.registry.get(Credentials),
      body,
      principal,
      this,
      'credentials',
    );
  }

  /** The record with its secrets opened; null when it does not exist. */
  async open(runner: SqlRunner, id: string): Promise<OpenedCredentials | null> {
    const row = await this.store.find(runner, id);
    if (!row) return null;
    return {
      id: row.id,
      teamId: row.team_id,
      type: row.type,
      parameters: row.parameters,
      secrets: this.cipher.openSecrets(row.secrets_ciphertext),
      rejectedAt: row.rejected_at,
    };
  }

  /**
   * Marks credentials a service refused (HTTP 401/403) until they are written again (a PUT
   * clears it); true when they were not marked already, so the caller tells the team once.
   */
  markRejected(runner: SqlRunner, id: string, reason: string): Promise<boolean> {
    return this.store.markRejected(runner, id, reason.slice(0, 500));
  }

  /**
   * The secret `key` of the record, made with `generate` and sealed with the others when it
   * has none yet (a store sync's webhook secret); the row is locked meanwhile, so concurrent
   * callers agree on one value. Null when the record is gone.
   */
  async ensureSecret(
    runner: SqlRunner,
    id: string,
    key: string,
    generate: () => string,
  ): Promise<string | null> {
    const row = await this.store.find(runner, id, true);
    if (!row) return null;
    const secrets = this.cipher.openSecrets(row.secrets_ciphertext);
    if (secrets[key]) return secrets[key];
    secrets[key] = generate();
    const hints = Object.fromEntries(
      Object.entries(secrets).map(([name, value]) => [name, maskSecret(value)]),
    );
    await this.store.replaceSecrets(runner, id, this.cipher.sealSecrets(secrets), hints);
    return secrets[key];
  }
}

/** A stored record with its secrets opened. */
type StoredCredentials = CredentialsSettings & {
  id: string;
  teamId: string;
  secretsCiphertext: string | null;
};

/**
 * Credentials are the team's keys: only its owners and admins manage them (and not through a
 * token granted to a third-party application: the resource declares `delegated: false`).
 */
function assertTeamAdmin(teamId: string | undefined, ctx: WriteContext<unknown>): void {
  if (teamId && !ctx.principal.adminTeamIds.includes(teamId)) {
    throw new ForbiddenError('Only owners and admins of the team manage its credentials.');
  }
}
