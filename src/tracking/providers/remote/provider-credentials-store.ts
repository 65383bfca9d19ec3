import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../config/app-config';
import { CredentialsCipher } from '../../../credentials/credentials-cipher';
import { NotificationsService } from '../../../notifications/notifications.service';
import { adapterFor } from './adapters';
import { PROVIDER_TYPES } from './provider-adapter';
import { INSTANCE_CREDENTIALS_KEY, type RoutableCredentials } from './provider-routing';
import { routableCredentials, splitProviderSettings } from './provider-settings';
import { retiredTrackingCredentials } from './retired-tracking-credentials';
import type { SqlRunner } from '../../../database/query';
import { CredentialsStore, type DatedCredentialsRow } from '../../../credentials/credentials-store';
import { TeamLookupStore } from '../../../teams/team-lookup-store';
import { VisibleMemory } from '../../../hydra/collection/visible-memory';

/** Notification tag of credentials a provider refused. */
export const CREDENTIALS_REJECTED_TAG = 'tracking_credentials_rejected';

/** Routable credentials plus whether the provider refused them (then they are not used). */
export interface TrackingCredentials extends RoutableCredentials {
  readonly teamId: string | null;
  readonly rejected: boolean;
}

type CredentialsRow = DatedCredentialsRow;

/**
 * Reads the tracking provider credentials of teams (secrets opened, `baseUrl` defaulted) and
 * the instance provider from the environment; marks credentials a provider refused, telling the
 * team's owners and admins once.
 */
@Injectable()
export class ProviderCredentialsStore {
  private readonly logger = new Logger(ProviderCredentialsStore.name);
  private instanceRejected = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly cipher: CredentialsCipher,
    private readonly config: AppConfig,
    private readonly notifications: NotificationsService,
    private readonly credentials: CredentialsStore,
    private readonly teams: TeamLookupStore,
  ) {}

  /** The tracking credentials of each team (teams without any are absent). */
  async forTeams(
    teamIds: readonly string[],
    runner: SqlRunner = this.dataSource,
  ): Promise<Map<string, TrackingCredentials[]>> {
    const out = new Map<string, TrackingCredentials[]>();
    if (teamIds.length === 0) return out;
    const rows = await this.rowsOfTeams(runner, [...new Set(teamIds)]);
    for (const row of rows) {
      const built = this.build(row);
      if (!built) continue;
      const list = out.get(row.team_id) ?? [];
      list.push(built);
      out.set(row.team_id, list);
    }
    return out;
  }

  /**
   * The teams' rows. A transaction that remembers what it read (an import's, VisibleMemory)
   * reads a team's once: its parcels are each routed on create, and nothing in it changes
   * credentials.
   */
  private async rowsOfTeams(runner: SqlRunner, teamIds: string[]): Promise<DatedCredentialsRow[]> {
    const rows: DatedCredentialsRow[] = [];
    const unread: string[] = [];
    for (const teamId of teamIds) {
      const known = VisibleMemory.recall(runner, teamCredentialsFact(teamId));
      if (known === undefined) unread.push(teamId);
      else rows.push(...(JSON.parse(known) as DatedCredentialsRow[]).map(revived));
    }
    if (unread.length === 0) return rows;
    const read = await this.credentials.ofTeams(runner, unread, PROVIDER_TYPES);
    for (const teamId of unread)
      VisibleMemory.note(
        runner,
        teamCredentialsFact(teamId),
        JSON.stringify(read.filter((r) => r.team_id === teamId)),
      );
    return [...rows, ...read];
  }

  /** One credentials record by id (`instance` for the environment's), or null. */
  async byKey(key: string): Promise<TrackingCredentials | null> {
    if (key === INSTANCE_CREDENTIALS_KEY) return this.instance();
    if (!/^[0-9a-f-]{36}$/i.test(key)) return null;
    const row = await this.credentials.findOfTypes(this.dataSource, key, PROVIDER_TYPES);
    return row ? this.build(row) : null;
  }

  /**
   * The credentials that stop numbers queued at `key`: the live record, or one retired when it
   * was deleted or moved to another account (credentials-retirement.ts).
   */
  async forStops(key: string): Promise<TrackingCredentials | null> {
    const live = await this.byKey(key);
    if (live || !/^[0-9a-f-]{36}$/i.test(key)) return live;
    const retired = await retiredTrackingCredentials.find(this.dataSource, key);
    return retired && this.build({ ...retired, team_id: retired.team_id ?? '', rejected_at: null });
  }

  /** TRACKING_PROVIDER with TRACKING_PROVIDER_CREDENTIALS, or null when unset. */
  instance(): TrackingCredentials | null {
    const type = this.config.trackingProvider;
    const adapter = type ? adapterFor(type) : undefined;
    if (!type || !adapter) return null;
    const { parameters, secrets } = splitProviderSettings(
      type,
      this.config.trackingProviderCredentials ?? {},
    );
    return {
      ...routableCredentials(INSTANCE_CREDENTIALS_KEY, adapter, parameters, secrets, new Date(0)),
      teamId: null,
      rejected: this.instanceRejected,
    };
  }

  /**
   * Marks the credentials refused; true when they were not already (the team's owners and
   * admins are notified then, so a refusal is reported once, not per shipment).
   */
  async markRejected(key: string, reason: string): Promise<boolean> {
    if (key === INSTANCE_CREDENTIALS_KEY) {
      if (this.instanceRejected) return false;
      this.instanceRejected = true;
      this.logger.error(`TRACKING_PROVIDER credentials rejected: ${reason}`);
      return true;
    }
    return this.dataSource.transaction(async (em) => {
      const rejected = await this.credentials.rejectOnce(em, key, reason);
      if (!rejected) return false;
      for (const admin of await this.teams.adminIds(em, rejected.team_id)) {
        await this.notifications.notify(
          {
            userId: admin,
            tag: CREDENTIALS_REJECTED_TAG,
            message:
              `The ${rejected.type} tracking provider refused the credentials /credentials/${key}: ` +
              `${reason}. Shipments routed to it are not tracked until the credentials are updated.`,
            data: [`/credentials/${key}`],
          },
          em,
        );
      }
      return true;
    });
  }

  private build(row: CredentialsRow): TrackingCredentials | null {
    const adapter = adapterFor(row.type);
    if (!adapter) return null;
    const parameters = (row.parameters ?? {}) as Record<string, string | number | boolean>;
    return {
      ...routableCredentials(
        row.id,
        adapter,
        parameters,
        this.cipher.openSecrets(row.secrets_ciphertext),
        row.created_at,
      ),
      teamId: row.team_id,
      rejected: row.rejected_at !== null,
    };
  }
}

/** What VisibleMemory remembers a team's tracking credentials rows under. */
function teamCredentialsFact(teamId: string): string {
  return `tracking-credentials/${teamId}`;
}

/** A row remembered as JSON, with its dates back. */
function revived(row: DatedCredentialsRow): DatedCredentialsRow {
  return {
    ...row,
    created_at: new Date(row.created_at),
    rejected_at: row.rejected_at === null ? null : new Date(row.rejected_at),
  };
}
