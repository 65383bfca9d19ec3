import type { EntityManager } from 'typeorm';
import type { Principal } from '../access/principal';
import type { CredentialsService, OpenedCredentials } from '../credentials/credentials.service';
import type { Violation } from '../common/errors/api-errors';
import type { ResourceRegistry } from '../hydra/metadata/resource-registry';
import type { ResourceMeta } from '../hydra/core/resource-meta';
import type { ResourceHooks, WriteContext } from '../hydra/core/resource-hooks';
import type { ResourceWriter } from '../hydra/write/resource-writer';
import type { WebhookSender } from '../webhooks/webhook-sender';
import type { WorkspaceLookupStore } from '../workspaces/workspace-lookup-store';
import type { Workspace } from '../workspaces/workspace.entity';
import type { IntegrationData } from './integration-data';
import type { WorkflowDependents } from './workflow-dependents';
import type { WorkflowExecutor, WorkflowExecutors, WrittenWorkflow } from './workflow-executors';
import { MAX_NESTING, applyNestedDefaults } from './workflow-rules';
import type { WorkflowStore } from './workflow-store';
import { Workflow } from './workflow.entity';
import { type WorkflowWrite, WorkflowsService } from './workflows.service';

const TEAM = 'team-a';
const OTHER_TEAM = 'team-b';
const WS = 'ws-1';
const OTHER_WS = 'ws-2';
const principal: Principal = {
  userId: 'user-1',
  email: 'owner@example.com',
  teamIds: [TEAM],
  adminTeamIds: [TEAM],
  workspaceIds: [WS, OTHER_WS],
};

/** The workflow table in memory: workspace and integration link per id. */
class FakeWorkflowStore {
  readonly rows = new Map<string, { workspaceId: string; integrationId: string | null }>();

  async workspaceOf(_runner: unknown, id: string) {
    return this.rows.get(id)?.workspaceId ?? null;
  }

  async leadsBackTo(_runner: unknown, startId: string, selfId: string) {
    let id: string | null = startId;
    for (let depth = 0; id !== null && depth <= 50; depth++) {
      if (id === selfId) return true;
      id = this.rows.get(id)?.integrationId ?? null;
    }
    return false;
  }
}

class FakeWorkspaces {
  readonly teams = new Map<string, string>([
    [WS, TEAM],
    [OTHER_WS, OTHER_TEAM],
  ]);

  async teamOf(_runner: unknown, id: string) {
    return this.teams.get(id) ?? null;
  }
}

/** Credentials by id, opened; nested ones created from their body. */
class FakeCredentials {
  readonly rows = new Map<string, OpenedCredentials>();
  readonly created: Array<{ input: Record<string, unknown>; teamId: string }> = [];

  add(id: string, teamId: string, type: string, parameters = {}, secrets = {}) {
    this.rows.set(id, { id, teamId, type, parameters, secrets });
  }

  async open(_runner: unknown, id: string) {
    return this.rows.get(id) ?? null;
  }

  async createNested(_em: unknown, input: Record<string, unknown>, teamId: string) {
    const id = `cred-${this.created.length + 1}`;
    this.created.push({ input, teamId });
    this.add(id, teamId, String(input.type), input.parameters ?? {}, input.secrets ?? {});
    return id;
  }
}

/** The public-address check of webhook targets: loopback refused, others accepted. */
const webhooks = {
  staticProblem: (url: string) =>
    url.includes('127.0.0.1')
      ? 'The webhook URL points to a private, loopback or link-local address.'
      : null,
};

/** The nested creates of `integration` objects, run through the hooks as the pipeline would. */
class FakeWriter {
  readonly depths: number[] = [];
  readonly created: Workflow[] = [];
  private next = 0;

  constructor(private readonly store: FakeWorkflowStore) {}

  async createWithin(
    em: EntityManager,
    _resource: ResourceMeta,
    body: Record<string, unknown>,
    p: Principal,
    hooks: ResourceHooks<Workflow, WorkflowWrite>,
  ): Promise<string> {
    const workflow = workflowOf({
      type: String(body.type),
      title: 'nested',
      workspace: { id: String(body.workspace).split('/').pop() } as Workspace,
      ...(typeof body.period === 'string' ? { period: body.period } : {}),
    });
    this.created.push(workflow);
    const ctx = context('post', {}, { em, principal: p });
    const state = await hooks.begin!(workflow, ctx as unknown as WriteContext<undefined>);
    this.depths.push(state.depth);
    const full = { ...ctx, state, nested: nestedOf(body) };
    await hooks.prepare!(workflow, full);
    const violations = await hooks.validate!(workflow, full);
    if (violations.length) throw new Error(JSON.stringify(violations));
    workflow.id = `nested-${++this.next}`;
    this.store.rows.set(workflow.id, {
      workspaceId: workflow.workspace.id,
      integrationId: workflow.integration?.id ?? null,
    });
    return workflow.id;
  }
}

function nestedOf(body: Record<string, unknown>): WriteContext['nested'] {
  return 'integration' in body
    ? { integration: body.integration as Record<string, unknown> | null }
    : {};
}

function workflowOf(values: Partial<Workflow>): Workflow {
  return Object.assign(new Workflow(), { credentials: null, integration: null }, values);
}

function context(
  operation: 'post' | 'put' | 'delete',
  nested: WriteContext['nested'] = {},
  extra: Partial<WriteContext<WorkflowWrite>> = {},
): WriteContext<WorkflowWrite> {
  return {
    principal,
    operation,
    resource: {} as ResourceMeta,
    em: {} as EntityManager,
    body: {},
    nested,
    state: { depth: 0, previousWorkspace: null },
    ...extra,
  };
}

function setup() {
  const store = new FakeWorkflowStore();
  const workspaces = new FakeWorkspaces();
  const credentials = new FakeCredentials();
  const writer = new FakeWriter(store);
  const removed: string[] = [];
  const notesRemoved: string[] = [];
  const moved: Array<{ workflowId: string; workspaceId: string }> = [];
  const integrationData = {
    remove: async (_ctx: WriteContext, id: string) => void removed.push(id),
  };
  const dependents = {
    move: async (_em: unknown, workflowId: string, workspaceId: string) =>
      void moved.push({ workflowId, workspaceId }),
    removeNotes: async (_ctx: WriteContext, id: string) => void notesRemoved.push(id),
  };
  // A store executor as the store sync provides it: runs a type with credentials of the type.
  const written: WrittenWorkflow[] = [];
  const executor: WorkflowExecutor = {
    types: ['shopify', 'woocommerce'],
    runs: (type, credentialsType) => credentialsType === type,
    written: async (_em, workflow) => void written.push(workflow),
    execute: async () => [],
  };
  const executors = {
    forType: (type: string) =>
      executor.types.includes(type.replace(/^integration-/, '')) ? executor : undefined,
  };
  const service = new WorkflowsService(
    { get: () => ({}) } as unknown as ResourceRegistry,
    writer as unknown as ResourceWriter,
    credentials as unknown as CredentialsService,
    webhooks as unknown as WebhookSender,
    integrationData as unknown as IntegrationData,
    store as unknown as WorkflowStore,
    workspaces as unknown as WorkspaceLookupStore,
    dependents as unknown as WorkflowDependents,
    executors as unknown as WorkflowExecutors,
  );

  /** begin, prepare and validate, as the pipeline runs them for a POST or PUT. */
  async function write(
    workflow: Workflow,
    operation: 'post' | 'put' = 'post',
    nested: WriteContext['nested'] = {},
    request?: WriteContext['request'],
  ): Promise<{ violations: Violation[]; ctx: WriteContext<WorkflowWrite> }> {
    const ctx = context(operation, nested, { request });
    ctx.state = await service.begin(workflow, ctx as unknown as WriteContext<undefined>);
    await service.prepare(workflow, ctx);
    return { violations: await service.validate(workflow, ctx), ctx };
  }

  return {
    service,
    store,
    workspaces,
    credentials,
    writer,
    removed,
    notesRemoved,
    moved,
    written,
    write,
  };
}

const inWs = (values: Partial<Workflow>) =>
  workflowOf({ title: 'A workflow', workspace: { id: WS } as Workspace, ...values });

const paths = (violations: Violation[]) => violations.map((v) => v.propertyPath);

describe('WorkflowsService', () => {
  describe('types', () => {
    it('sets the read-only facts of the type and the POST defaults', async () => {
      const { write } = setup();
      const workflow = inWs({ type: 'shopify', period: 'daily' });
      workflow.credentials = null;
      await write(workflow);
      expect(workflow).toMatchObject({
        tags: ['ecommerce', 'incoming'],
        integrationType: 'ecommerce',
        passive: true,
        remote: true,
        enabled: true,
        notificationEmails: [],
        firstTimeSetupPassed: false,
        firstTimeSetupRequired: true,
        concurrency: '1',
      });
    });

    it('runs a store type here with credentials of its type, and tells its executor', async () => {
      const { write, service, credentials, written } = setup();
      credentials.add('shop-creds', TEAM, 'shopify', { shopDomain: 'a.myshopify.com' });
      credentials.add('hook-creds', TEAM, 'webhook');
      const run = inWs({ type: 'integration-shopify', period: 'hourly', id: 'wf-1' });
      run.credentials = { id: 'shop-creds' } as Workflow['credentials'];
      const { violations, ctx } = await write(run);
      expect(violations).toEqual([]);
      expect(run).toMatchObject({ passive: false, remote: false, integrationType: 'ecommerce' });
      await service.afterWrite(run, ctx);
      expect(written).toEqual([
        expect.objectContaining({
          id: 'wf-1',
          type: 'shopify',
          workspaceId: WS,
          credentialsId: 'shop-creds',
          runsHere: true,
        }),
      ]);
      // Without credentials, or with others (refused by validate anyway): remote, untouched.
      const remote = inWs({ type: 'shopify' });
      await write(remote);
      expect(remote).toMatchObject({ passive: true, remote: true });
      const wrong = inWs({ type: 'shopify' });
      wrong.credentials = { id: 'hook-creds' } as Workflow['credentials'];
      expect(paths((await write(wrong)).violations)).toEqual(['credentials']);
      expect(wrong).toMatchObject({ passive: true, remote: true });
    });

    it('takes the reference names of store types (integration-woocommerce)', async () => {
      const { write } = setup();
      const workflow = inWs({ type: 'integration-woocommerce' });
      const { violations } = await write(workflow);
      expect(violations).toEqual([]);
      expect(workflow.integrationType).toBe('ecommerce');
    });

    it('needs no setup once it was passed, and none for api workflows', async () => {
      const { write } = setup();
      const passed = inWs({ type: 'magento', firstTimeSetupPassed: true });
      const api = inWs({ type: 'api' });
      await write(passed);
      await write(api);
      expect(passed.firstTimeSetupRequired).toBe(false);
      expect(api).toMatchObject({
        firstTimeSetupRequired: false,
        passive: true,
        tags: ['custom', 'incoming'],
      });
    });

    it('leaves an unknown type to the Choice constraint: no facts, no rule runs', async () => {
      const { write } = setup();
      const workflow = inWs({ type: 'fax', notificationEmails: ['not-an-address'] });
      const { violations } = await write(workflow);
      expect(workflow.tags).toBeUndefined();
      expect(paths(violations)).toEqual(['notificationEmails[0]']);
    });

    it('reads blank texts as null', async () => {
      const { write } = setup();
      const workflow = inWs({ type: 'api', url: '  ', username: '', password: null, field: ' ' });
      await write(workflow);
      expect(workflow).toMatchObject({ url: null, username: null, password: null, field: null });
    });
  });

  describe('notification e-mails', () => {
    it('refuses more than 20 and invalid addresses, each by its index', async () => {
      const { write } = setup();
      const emails = Array.from({ length: 21 }, (_, i) => `u${i}@example.com`);
      emails[3] = 'nope';
      const { violations } = await write(inWs({ type: 'api', notificationEmails: emails }));
      expect(paths(violations)).toEqual(['notificationEmails', 'notificationEmails[3]']);
    });
  });

  describe('credentials', () => {
    it('takes credentials of the workspace team and of a type the workflow takes', async () => {
      const { write, credentials } = setup();
      credentials.add('c1', TEAM, 'shopify');
      const { violations } = await write(
        inWs({ type: 'shopify', credentials: { id: 'c1' } as Workflow['credentials'] }),
      );
      expect(violations).toEqual([]);
    });

    it("refuses another team's credentials", async () => {
      const { write, credentials } = setup();
      credentials.add('c1', OTHER_TEAM, 'shopify');
      const { violations } = await write(
        inWs({ type: 'shopify', credentials: { id: 'c1' } as Workflow['credentials'] }),
      );
      expect(violations).toEqual([
        expect.objectContaining({
          propertyPath: 'credentials',
          message: 'The credentials must belong to the team of the workspace.',
        }),
      ]);
    });

    it('refuses credentials of another type, naming the types it takes', async () => {
      const { write, credentials } = setup();
      credentials.add('c1', TEAM, 'woocommerce');
      credentials.add('c2', TEAM, 'woocommerce');
      const shopify = await write(
        inWs({ type: 'shopify', credentials: { id: 'c1' } as Workflow['credentials'] }),
      );
      const api = await write(
        inWs({ type: 'api', credentials: { id: 'c2' } as Workflow['credentials'] }),
      );
      expect(shopify.violations[0].message).toBe(
        'A shopify workflow takes credentials of type shopify.',
      );
      expect(api.violations[0].message).toBe('A api workflow takes no credentials.');
    });

    it("creates credentials given as an object, in the workspace's team by default", async () => {
      const { write, credentials } = setup();
      const workflow = inWs({ type: 'webhook' });
      const { violations } = await write(workflow, 'post', {
        credentials: {
          type: 'webhook',
          parameters: { url: 'https://hooks.example.com/in' },
          secrets: { signingSecret: 'a-long-enough-secret' },
        },
      });
      expect(violations).toEqual([]);
      expect(credentials.created.map((c) => c.teamId)).toEqual([TEAM]);
      expect(workflow.credentials?.id).toBe('cred-1');
    });
  });

  describe('webhook workflows', () => {
    it('needs, enabled and without a url, credentials with a url and a signing secret', async () => {
      const { write, credentials } = setup();
      credentials.add('bare', TEAM, 'webhook', { url: 'https://hooks.example.com' }, {});
      const none = await write(inWs({ type: 'webhook' }));
      const bare = await write(
        inWs({ type: 'webhook', credentials: { id: 'bare' } as Workflow['credentials'] }),
      );
      const disabled = await write(inWs({ type: 'webhook', enabled: false }));
      for (const { violations } of [none, bare])
        expect(violations).toEqual([
          expect.objectContaining({
            propertyPath: 'credentials',
            message:
              'An enabled webhook workflow needs a url, or webhook credentials with parameters.url and secrets.signingSecret.',
          }),
        ]);
      expect(disabled.violations).toEqual([]);
    });

    it('refuses credentials whose url is not a public address', async () => {
      const { write, credentials } = setup();
      credentials.add(
        'local',
        TEAM,
        'webhook',
        { url: 'http://127.0.0.1/in' },
        { signingSecret: 's' },
      );
      const { violations } = await write(
        inWs({ type: 'webhook', credentials: { id: 'local' } as Workflow['credentials'] }),
      );
      expect(violations).toEqual([
        expect.objectContaining({
          propertyPath: 'credentials',
          message: 'The webhook URL points to a private, loopback or link-local address.',
        }),
      ]);
    });

    describe("the reference's form (url set)", () => {
      it('needs no credentials, and checks its url, concurrency and authentication', async () => {
        const { write } = setup();
        const ok = await write(
          inWs({
            type: 'webhook',
            url: 'https://erp.example.com/hook',
            authType: 'bearer',
            password: 'token',
            concurrency: '10',
          }),
        );
        expect(ok.violations).toEqual([]);
        const bad = await write(
          inWs({
            type: 'webhook',
            url: 'http://127.0.0.1/hook',
            authType: 'basic',
            username: 'erp',
            concurrency: '11',
          }),
        );
        expect(paths(bad.violations)).toEqual(['concurrency', 'url', 'username']);
      });

      it('needs the token as password for bearer authentication', async () => {
        const { write } = setup();
        const { violations } = await write(
          inWs({ type: 'webhook', url: 'https://erp.example.com', authType: 'bearer' }),
        );
        expect(violations).toEqual([
          expect.objectContaining({
            propertyPath: 'password',
            message: 'Bearer authentication needs the token as password.',
          }),
        ]);
      });

      it.each(['0', '1.5', 'many'])('refuses the concurrency %p', async (concurrency) => {
        const { write } = setup();
        const { violations } = await write(
          inWs({ type: 'webhook', url: 'https://erp.example.com', concurrency }),
        );
        expect(paths(violations)).toEqual(['concurrency']);
      });
    });
  });

  describe('integration', () => {
    it('must be a workflow of the same workspace', async () => {
      const { write, store } = setup();
      store.rows.set('elsewhere', { workspaceId: OTHER_WS, integrationId: null });
      store.rows.set('here', { workspaceId: WS, integrationId: null });
      const foreign = await write(
        inWs({ type: 'api', integration: { id: 'elsewhere' } as Workflow }),
      );
      const missing = await write(inWs({ type: 'api', integration: { id: 'gone' } as Workflow }));
      const same = await write(inWs({ type: 'api', integration: { id: 'here' } as Workflow }));
      for (const { violations } of [foreign, missing])
        expect(violations).toEqual([
          expect.objectContaining({
            propertyPath: 'integration',
            message: 'The integration must be a workflow of the same workspace.',
          }),
        ]);
      expect(same.violations).toEqual([]);
    });

    it('never leads back to the workflow itself', async () => {
      const { write, store } = setup();
      store.rows.set('self', { workspaceId: WS, integrationId: null });
      store.rows.set('a', { workspaceId: WS, integrationId: 'b' });
      store.rows.set('b', { workspaceId: WS, integrationId: 'self' });
      const { violations } = await write(
        inWs({ id: 'self', type: 'api', integration: { id: 'a' } as Workflow }),
        'put',
      );
      expect(violations).toEqual([
        expect.objectContaining({ message: 'A workflow cannot be its own integration.' }),
      ]);
    });

    it(`creates nested objects ${MAX_NESTING} deep at most, then drops the rest`, async () => {
      const { write, writer } = setup();
      const chain = (depth: number): Record<string, unknown> =>
        depth === 0 ? { type: 'api' } : { type: 'api', integration: chain(depth - 1) };
      const workflow = inWs({ type: 'api' });
      const { violations } = await write(workflow, 'post', { integration: chain(5) });
      expect(violations).toEqual([]);
      expect(workflow.integration?.id).toBeDefined();
      expect(writer.depths).toEqual([1, 2, 3]);
    });

    it('needs no period for a nested incoming integration, still one for a webhook', async () => {
      const { write, writer } = setup();
      await write(inWs({ type: 'api' }), 'post', {
        integration: { type: 'integration-woocommerce' },
      });
      await write(inWs({ type: 'api' }), 'post', {
        integration: { type: 'shopify', period: 'daily' },
      });
      expect(writer.created.map((w) => [w.type, w.period])).toEqual([
        ['integration-woocommerce', 'immediately'],
        ['shopify', 'daily'],
      ]);
      // Outgoing workflows, and the request's own workflow, keep the rule: a period is asked for.
      const hook = inWs({ type: 'webhook' });
      applyNestedDefaults(hook);
      expect(hook.period).toBeUndefined();
      const own = inWs({ type: 'shopify' });
      await write(own);
      expect(own.period).toBeUndefined();
    });

    it('an explicit null unlinks it', async () => {
      const { write } = setup();
      const workflow = inWs({ type: 'api', integration: { id: 'x' } as Workflow });
      await write(workflow, 'put', { integration: null });
      expect(workflow.integration).toBeNull();
    });
  });

  describe('a move to another workspace', () => {
    it('takes the runs, notes and deliveries along, from the workspace it had', async () => {
      const { write, store, service, moved } = setup();
      store.rows.set('wf', { workspaceId: WS, integrationId: null });
      const workflow = workflowOf({
        id: 'wf',
        title: 'moved',
        type: 'api',
        workspace: { id: OTHER_WS } as Workspace,
      });
      const { ctx } = await write(workflow, 'put');
      expect(ctx.state.previousWorkspace).toBe(WS);
      await service.afterWrite(workflow, ctx);
      expect(moved).toEqual([{ workflowId: 'wf', workspaceId: OTHER_WS }]);
    });

    it('moves nothing when the workspace stays, or on POST', async () => {
      const { write, store, service, moved } = setup();
      store.rows.set('wf', { workspaceId: WS, integrationId: null });
      const kept = inWs({ id: 'wf', type: 'api' });
      const put = await write(kept, 'put');
      await service.afterWrite(kept, put.ctx);
      const created = inWs({ type: 'api' });
      const post = await write(created);
      await service.afterWrite(created, post.ctx);
      expect(moved).toEqual([]);
    });
  });

  describe('deleteData', () => {
    const remove = async (deleteData?: string) => {
      const { service, removed, notesRemoved } = setup();
      const ctx = context(
        'delete',
        {},
        {
          request: {
            query: deleteData === undefined ? {} : { deleteData },
          } as WriteContext['request'],
        },
      );
      await service.beforeRemove(workflowOf({ id: 'wf' }), ctx);
      return { removed, notesRemoved };
    };

    it.each(['1', 'true', 'YES', 'on'])(
      '?deleteData=%s removes what the integration brought in, and the notes',
      async (value) => {
        expect(await remove(value)).toEqual({ removed: ['wf'], notesRemoved: ['wf'] });
      },
    );

    it.each([undefined, '0', 'no', ''])('?deleteData=%p keeps the records', async (value) => {
      expect(await remove(value)).toEqual({ removed: [], notesRemoved: ['wf'] });
    });
  });
});
