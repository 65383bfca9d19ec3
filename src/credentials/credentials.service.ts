import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { assertAccountManager, type Principal } from '../access/principal';
import {
  ForbiddenError,
  ValidationError,
  Violation,
  ViolationCodes,
} from '../common/errors/api-errors';
import { ResourceRegistry } from '../hydra/metadata/resource-registry';
import { typeError } from '../hydra/write/denormalizer';
import type { ResourceHooks, WriteContext } from '../hydra/core/resource-hooks';
import { ResourceWriter } from '../hydra/write/resource-writer';
import { credentialType, destinationChanged, parameterProblem } from './credential-types';
import { CredentialsCipher } from './credentials-cipher';
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
import { type SqlRunner, query } from '../database/query';

const MAX_SECRET_LENGTH = 4096;

/** Credentials as their users (webhook delivery, mail) need them: secrets in clear. */
export interface OpenedCredentials {
  id: string;
  teamId: string;
  type: string;
  parameters: Record<string, unknown>;
  secrets: Record<string, string>;
}

/**
 * Credential rules: `type` fixes which parameters and secrets a record may hold (unknown
 * members are 422, values are type-checked); secrets are merged (PUT keeps members left out,
 * null removes one), sealed with the deployment key and replaced by masked hints, so neither
 * the stored row's readable columns nor any answer carries them. A PUT that changes where the
 * credentials connect (the type's `destination` parameters) starts from no secrets: only those
 * it gives are kept. Only the team's owners and admins create, change or delete credentials
 * (members read them, masked). Credentials that workflows use, or that a workspace sends its
 * e-mail through, cannot be deleted.
 */
@Injectable()
export class CredentialsService implements ResourceHooks<Credentials> {
  private readonly pending = new WeakMap<Credentials, Violation[]>();
  /** The record as it was before a PUT, for afterWrite. */
  private readonly previous = new WeakMap<Credentials, StoredCredentials>();

  constructor(
    private readonly cipher: CredentialsCipher,
    private readonly registry: ResourceRegistry,
    private readonly writer: ResourceWriter,
    private readonly jobs: JobQueue,
  ) {}

  async prepare(credentials: Credentials, ctx: WriteContext): Promise<void> {
    const stored = await storedRow(credentials, ctx);
    assertTeamAdmin(credentials.team?.id ?? stored?.team_id, ctx);
    if (stored) this.previous.set(credentials, this.opened(stored));
    const violations: Violation[] = [];
    this.pending.set(credentials, violations);
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
    if ('parameters' in ctx.body) {
      const raw = ctx.body.parameters;
      const out: Record<string, unknown> = {};
      if (raw !== null) {
        if (typeof raw !== 'object' || Array.isArray(raw))
          throw typeError('parameters', 'array', raw);
        for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
          const kind = (spec.parameters as Record<string, string>)[key];
          if (!kind) {
            violations.push(unexpected(`parameters.${key}`));
            continue;
          }
          const problem = parameterProblem(kind as never, value);
          if (problem) violations.push(invalid(`parameters.${key}`, problem));
          else if (value !== null && value !== '')
            out[key] = typeof value === 'string' ? value.trim() : value;
        }
      }
      credentials.parameters = out;
    }

    const moved =
      ctx.operation === 'put' &&
      destinationChanged(spec, previousParameters, credentials.parameters ?? {});
    const current = moved ? {} : this.cipher.openSecrets(credentials.secretsCiphertext ?? null);
    if ('secrets' in ctx.body) {
      const raw = ctx.body.secrets;
      if (raw === null) {
        for (const key of Object.keys(current)) delete current[key];
      } else {
        if (typeof raw !== 'object' || Array.isArray(raw)) throw typeError('secrets', 'array', raw);
        for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
          if (!spec.secrets.includes(key)) {
            violations.push(unexpected(`secrets.${key}`));
          } else if (value === null || value === '') {
            delete current[key];
          } else if (typeof value !== 'string') {
            // Never echo the value: it is a secret.
            violations.push(invalid(`secrets.${key}`, 'This value should be of type string.'));
          } else if (value.length < (spec.minSecretLength ?? 1)) {
            violations.push(
              invalid(
                `secrets.${key}`,
                `This value is too short. It should have ${spec.minSecretLength} characters or more.`,
              ),
            );
          } else if (value.length > MAX_SECRET_LENGTH) {
            violations.push(
              invalid(
                `secrets.${key}`,
                `This value is too long. It should have ${MAX_SECRET_LENGTH} characters or less.`,
              ),
            );
          } else {
            current[key] = value;
          }
        }
      }
    }
    credentials.secretsCiphertext = this.cipher.sealSecrets(current);
    credentials.secrets = Object.fromEntries(
      Object.entries(current).map(([key, value]) => [key, maskSecret(value)]),
    );
  }

  validate(credentials: Credentials): Violation[] {
    return this.pending.get(credentials) ?? [];
  }

  /**
   * Tracking credentials written: numbers registered with the account they pointed at before
   * (another type, server or key) are queued for stopping there, and a job applies the new
   * routing to the team's shipments at once (tracking/refresh/tracking-rerouter.ts), so that
   * neither waits for each shipment's next check.
   */
  async afterWrite(credentials: Credentials, ctx: WriteContext): Promise<void> {
    const before = this.previous.get(credentials);
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

  async beforeRemove(credentials: Credentials, ctx: WriteContext): Promise<void> {
    const stored = await storedRow(credentials, ctx);
    assertTeamAdmin(stored?.team_id, ctx);
    await this.refuseRemovalInUse(credentials, ctx);
    if (stored && isTrackingType(stored.type)) {
      // The secrets go with the row: a copy is kept until its numbers are stopped.
      await retireTrackingAccount(ctx.em, this.opened(stored));
      await this.reroute(stored.team_id, ctx);
    }
  }

  private async reroute(teamId: string | undefined, ctx: WriteContext): Promise<void> {
    if (teamId) await this.jobs.send(REROUTE_QUEUE, { teamId }, { runner: ctx.em });
  }

  private opened(stored: StoredRow): StoredCredentials {
    return {
      id: stored.id,
      teamId: stored.team_id,
      type: stored.type,
      parameters: stored.parameters ?? {},
      secrets: this.cipher.openSecrets(stored.secrets_ciphertext),
      secretsCiphertext: stored.secrets_ciphertext,
    };
  }

  /** Workflows and workspaces name credentials: those cannot go. */
  private async refuseRemovalInUse(credentials: Credentials, ctx: WriteContext): Promise<void> {
    const [{ n }] = await ctx.em.query(
      `SELECT count(*)::int AS n FROM workflow WHERE credentials_id = $1`,
      [credentials.id],
    );
    if (n > 0) {
      throw ValidationError.of(
        'id',
        `These credentials are used by ${n} workflow(s); change or delete them first.`,
        ViolationCodes.invalid,
      );
    }
    // Workspaces name their SMTP credentials by IRI (emailSettings.smtpCredentials).
    const [{ w }] = await ctx.em.query(
      `SELECT count(*)::int AS w FROM workspace
        WHERE team_id = (SELECT team_id FROM credentials WHERE id = $1)
          AND email_settings->>'smtpCredentials' = '/credentials/' || $1::text`,
      [credentials.id],
    );
    if (w > 0) {
      throw ValidationError.of(
        'id',
        `These credentials are the SMTP server of ${w} workspace(s); change their emailSettings first.`,
        ViolationCodes.invalid,
      );
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
    const rows = await query<{
      id: string;
      team_id: string;
      type: string;
      parameters: Record<string, unknown>;
      secrets_ciphertext: string | null;
    }>(
      runner,
      `SELECT id, team_id, type, parameters, secrets_ciphertext FROM credentials WHERE id = $1`,
      [id],
    );
    if (rows.length === 0) return null;
    const row = rows[0];
    return {
      id: row.id,
      teamId: row.team_id,
      type: row.type,
      parameters: row.parameters,
      secrets: this.cipher.openSecrets(row.secrets_ciphertext),
    };
  }
}

interface StoredRow {
  id: string;
  team_id: string;
  type: string;
  parameters: Record<string, unknown>;
  secrets_ciphertext: string | null;
}

/** A stored record with its secrets opened. */
type StoredCredentials = CredentialsSettings & {
  id: string;
  teamId: string;
  secretsCiphertext: string | null;
};

/** The record as stored before this write (undefined for a new one). */
async function storedRow(
  credentials: Credentials,
  ctx: WriteContext,
): Promise<StoredRow | undefined> {
  if (!credentials.id) return undefined;
  const [row] = await ctx.em.query(
    `SELECT id, team_id, type, parameters, secrets_ciphertext FROM credentials WHERE id = $1`,
    [credentials.id],
  );
  return row;
}

/**
 * Credentials are the team's keys: only its owners and admins manage them, and not through a
 * token granted to a third-party application.
 */
function assertTeamAdmin(teamId: string | undefined, ctx: WriteContext): void {
  assertAccountManager(ctx.principal, 'credentials');
  if (teamId && !ctx.principal.adminTeamIds.includes(teamId)) {
    throw new ForbiddenError('Only owners and admins of the team manage its credentials.');
  }
}

function unexpected(path: string): Violation {
  return {
    propertyPath: path,
    message: 'This field was not expected.',
    code: ViolationCodes.invalid,
  };
}

function invalid(path: string, message: string): Violation {
  return { propertyPath: path, message, code: ViolationCodes.invalid };
}
