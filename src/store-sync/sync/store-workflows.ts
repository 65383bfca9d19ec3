import { Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { Principal } from '../../access/principal';
import { AppConfig } from '../../config/app-config';
import { publicBaseUrl } from '../../config/public-base-url';
import { CredentialsService, type OpenedCredentials } from '../../credentials/credentials.service';
import { NotificationsService } from '../../notifications/notifications.service';
import { TeamLookupStore } from '../../teams/team-lookup-store';
import { WorkflowStore } from '../../workflows/workflow-store';
import { canonicalWorkflowType } from '../../workflows/workflow-types';
import { WorkspaceLookupStore } from '../../workspaces/workspace-lookup-store';
import {
  generatedSecretName,
  storeConnection,
  storeSyncOptions,
  type StoreSyncOptions,
} from '../rules/store-connection';
import { SHOPIFY_TOKEN_RENEW_BEFORE_MS } from '../shopify/shopify-constants';
import type { StoreClient, StoreConnection, StorePlatformType } from '../store-platform';
import { connectStore, isStorePlatformType } from '../store-platforms';
import type { StoreHttpDeps } from '../transport/store-http';
import { StoreTokenCache } from '../transport/store-token-cache';
import { workflowPrincipal } from './store-sync-principal';

/** Notification tag of store credentials a store refused. */
export const STORE_CREDENTIALS_REJECTED_TAG = 'store_credentials_rejected';

/** A store workflow with what its runs, webhooks and pushes need. */
export interface StoreWorkflow {
  readonly id: string;
  readonly platform: StorePlatformType;
  readonly workspaceId: string;
  readonly teamId: string;
  readonly title: string | null;
  /** Enabled and run here (credentials of its type): it may call its store. */
  readonly live: boolean;
  readonly credentials: OpenedCredentials | null;
  /** How to reach the store; null with `problem` saying what the credentials lack. */
  readonly connection: StoreConnection | null;
  readonly problem: string | null;
  readonly options: StoreSyncOptions;
  /** Who its writes act as; null when the team has no owner or admin left. */
  readonly principal: Principal | null;
}

/**
 * Loads store workflows (the workflow, its credentials opened, the connection they give) and
 * holds what every store session shares: the operator's reach (STORE_SYNC_ALLOWED_HOSTS,
 * BIGCOMMERCE_API_ROOT), the timeout and this process's cache of exchanged Shopify tokens.
 */
@Injectable()
export class StoreWorkflows {
  private readonly logger = new Logger(StoreWorkflows.name);
  private readonly tokens = new StoreTokenCache(SHOPIFY_TOKEN_RENEW_BEFORE_MS);

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly workflows: WorkflowStore,
    private readonly credentials: CredentialsService,
    private readonly workspaces: WorkspaceLookupStore,
    private readonly teams: TeamLookupStore,
    private readonly notifications: NotificationsService,
  ) {}

  /** The workflow, if it is a store workflow (whatever its state). */
  async load(workflowId: string): Promise<StoreWorkflow | null> {
    const row = await this.workflows.storeRun(this.dataSource, workflowId);
    const platform = row ? canonicalWorkflowType(row.type) : '';
    if (!row || !isStorePlatformType(platform)) return null;
    const teamId = await this.workspaces.teamOf(this.dataSource, row.workspace_id);
    if (!teamId) return null;
    const credentials = row.credentials_id
      ? await this.credentials.open(this.dataSource, row.credentials_id)
      : null;
    const usable = credentials?.type === platform ? credentials : null;
    const reached = usable
      ? storeConnection(usable, {
          allowedHosts: this.config.storeSyncAllowedHosts,
          bigcommerceApiRoot: this.config.bigcommerceApiRoot,
        })
      : { problem: `The workflow has no ${platform} credentials.` };
    const [actor] = await this.teams.adminIds(this.dataSource, teamId);
    return {
      id: row.id,
      platform,
      workspaceId: row.workspace_id,
      teamId,
      title: row.title,
      live: row.enabled && !row.passive && usable !== null,
      credentials: usable,
      connection: 'connection' in reached ? reached.connection : null,
      problem: 'problem' in reached ? reached.problem : null,
      options: storeSyncOptions(usable ?? { type: platform, parameters: {}, secrets: {} }),
      principal: actor
        ? workflowPrincipal({ userId: actor, teamId, workspaceId: row.workspace_id })
        : null,
    };
  }

  /**
   * The workflow with the webhook secret this service makes up for its platform (WooCommerce,
   * BigCommerce), generated and sealed with its credentials the first time.
   */
  async withGeneratedSecret(workflow: StoreWorkflow): Promise<StoreWorkflow> {
    const name = generatedSecretName(workflow.platform);
    if (!name || !workflow.credentials || workflow.credentials.secrets[name]) return workflow;
    const id = workflow.credentials.id;
    await this.dataSource.transaction((em) =>
      this.credentials.ensureSecret(em, id, name, () => randomBytes(32).toString('base64url')),
    );
    return (await this.load(workflow.id)) ?? workflow;
  }

  /** A session with the workflow's store (its connection must be known). */
  connect(workflow: StoreWorkflow): StoreClient {
    if (!workflow.connection) throw new Error(workflow.problem ?? 'No store connection.');
    return connectStore(workflow.connection, this.httpDeps());
  }

  /** What store sessions need from the application. */
  httpDeps(): StoreHttpDeps {
    return {
      allowedHosts: this.config.storeSyncAllowedHosts,
      timeoutMs: this.config.outboundHttpTimeoutMs,
      tokens: this.tokens,
    };
  }

  /** Where the store delivers its webhooks for this workflow. */
  receiverUrl(workflow: Pick<StoreWorkflow, 'id' | 'platform'>): string {
    return `${publicBaseUrl(this.config)}/public/store_webhooks/${workflow.platform}/${workflow.id}`;
  }

  /**
   * The store refused the credentials (401/403): they are marked (no call is made with them
   * until they are written again) and the team's owners and admins are told, once.
   */
  async credentialsRejected(workflow: StoreWorkflow, reason: string): Promise<void> {
    const credentials = workflow.credentials;
    if (!credentials) return;
    await this.dataSource.transaction(async (em) => {
      if (!(await this.credentials.markRejected(em, credentials.id, reason))) return;
      const name = workflow.title ? `"${workflow.title}"` : `/workflows/${workflow.id}`;
      for (const userId of await this.teams.adminIds(em, workflow.teamId)) {
        await this.notifications.notify(
          {
            userId,
            tag: STORE_CREDENTIALS_REJECTED_TAG,
            message:
              `The store of workflow ${name} refused its credentials /credentials/${credentials.id}: ` +
              `${reason}. The store is not synced until the credentials are updated.`,
            data: [`/workflows/${workflow.id}`, `/credentials/${credentials.id}`],
          },
          em,
        );
      }
    });
    this.logger.warn(`store workflow ${workflow.id}: credentials rejected (${reason})`);
  }
}
