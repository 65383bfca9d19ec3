import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Principal } from '../access/principal';
import type { SqlRunner } from '../events/sql-runner';
import { ValidationError, Violation, ViolationCodes } from '../hydra/errors/api-errors';
import { ResourceRegistry } from '../hydra/metadata/resource-registry';
import { typeError } from '../hydra/write/denormalizer';
import type { ResourceHooks, WriteContext } from '../hydra/write/resource-hooks';
import { ResourceWriter } from '../hydra/write/resource-writer';
import { credentialType, parameterProblem } from './credential-types';
import { CredentialsCipher } from './credentials-cipher';
import { Credentials } from './credentials.entity';
import { maskSecret } from './secret-box';

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
 * the stored row's readable columns nor any answer carries them. Credentials that workflows
 * use, or that a workspace sends its e-mail through, cannot be deleted.
 */
@Injectable()
export class CredentialsService implements ResourceHooks<Credentials> {
  private readonly pending = new WeakMap<Credentials, Violation[]>();

  constructor(
    private readonly cipher: CredentialsCipher,
    private readonly registry: ResourceRegistry,
    private readonly writer: ResourceWriter,
  ) {}

  prepare(credentials: Credentials, ctx: WriteContext): void {
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

    const current = this.cipher.openSecrets(credentials.secretsCiphertext ?? null);
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

  async beforeRemove(credentials: Credentials, ctx: WriteContext): Promise<void> {
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
    const rows: Array<{
      id: string;
      team_id: string;
      type: string;
      parameters: Record<string, unknown>;
      secrets_ciphertext: string | null;
    }> = await runner.query(
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
