import type { EntityManager } from 'typeorm';
import type { Principal } from '../access/principal';
import type { WorkspaceSmtpCredentialsStore } from '../credentials/workspace-smtp-credentials-store';
import type { DataProvider } from '../hydra/collection/data-provider';
import { BadRequestError, ForbiddenError, ValidationError } from '../common/errors/api-errors';
import type { ResourceRegistry } from '../hydra/metadata/resource-registry';
import type { Denormalizer } from '../hydra/write/denormalizer';
import type { WriteContext } from '../hydra/core/resource-hooks';
import type { MediaService } from '../media/media.service';
import type { TeamMemberStore, TeamSummary } from '../teams/team-member-store';
import { TeamsService } from '../teams/teams.service';
import type { TeamStore } from '../teams/team-store';
import type { DefaultTrackingPageStore } from '../tracking-pages/default-tracking-page-store';
import { TrackingPage } from '../tracking-pages/tracking-page.entity';
import type { TrackingPagesService } from '../tracking-pages/tracking-pages.service';
import type { WorkspaceDeletion } from './workspace-deletion';
import type { WorkspaceStore } from './workspace-store';
import type { Workspace } from './workspace.entity';
import { WorkspacesService, type WorkspaceWrite } from './workspaces.service';

const WS = '11111111-1111-4111-8111-111111111111';
const CREDENTIALS = '22222222-2222-4222-8222-222222222222';
const IMAGE = 'media-image';
const PDF = 'media-pdf';

/** What the workspace rules read and write of the database, in memory. */
class World {
  /** Teams the caller administers, in the order they joined them. */
  administered: TeamSummary[] = [];
  teamsCreated: string[] = [];
  /** Workspaces' teams and default pages. */
  workspaces = new Map<string, { team: string; page: string | null }>();
  /** Tracking pages by id, with their workspace. */
  pages = new Map<string, TrackingPage & { savedFor?: string }>();
  media = new Map([
    [IMAGE, { id: IMAGE, filePath: '/files/logo.png', mimeType: 'image/png' }],
    [PDF, { id: PDF, filePath: '/files/terms.pdf', mimeType: 'application/pdf' }],
  ]);
  credentials = new Map<string, { type: string; team_id: string }>();
  /** Media ids attaching answers (a copy for another workspace's upload). */
  copies = new Map<string, string>();
  updates: string[] = [];
  deleted: string[] = [];
}

function setUp(world = new World()) {
  const workspaceStore: Partial<WorkspaceStore> = {
    teamOf: async (_db, id) => world.workspaces.get(id)?.team,
    defaultTrackingPageId: async (_db, id) => world.workspaces.get(id)?.page ?? null,
    setDefaultTrackingPage: async (_db, id, pageId) => {
      world.updates.push(`default page ${pageId}`);
      world.workspaces.get(id)!.page = pageId;
    },
    setLogo: async (_db, _id, mediaId) => void world.updates.push(`logo ${mediaId}`),
    setEmailLogo: async (_db, _id, mediaId) => void world.updates.push(`e-mail logo ${mediaId}`),
  };
  let nextPage = 1;
  const pageStore: DefaultTrackingPageStore = {
    belongsTo: async (_db, pageId, workspaceId) =>
      world.pages.get(pageId)?.workspace?.id === workspaceId,
    lock: async (_em, id) => world.pages.get(id) ?? null,
    create: () => new TrackingPage(),
    save: async (_em, page) => {
      page.id ??= `page-${nextPage++}`;
      world.pages.set(page.id, page);
    },
  };
  const smtp: WorkspaceSmtpCredentialsStore = {
    typeAndTeam: async (_db, id) => world.credentials.get(id),
  };
  const members: Partial<TeamMemberStore> = {
    administeredBy: async () => world.administered,
    add: async () => undefined,
  };
  const teamStore: Partial<TeamStore> = {
    create: async (_db, name) => {
      world.teamsCreated.push(name);
      return `new-team-${world.teamsCreated.length}`;
    },
  };
  const deletion: Partial<WorkspaceDeletion> = {
    deleteOrSchedule: async (_em, id) => {
      world.deleted.push(id);
      return 'scheduled';
    },
  };
  const media: Partial<MediaService> = {
    summary: async (_em, id) => world.media.get(id) ?? null,
    attach: async (_em, id) => world.copies.get(id) ?? id,
  };
  const registry = {
    get: (target: unknown) => ({ target }),
    all: () => [{ path: '/credentials' }],
  };
  const data = {
    // References resolve to the id they name; `unknown` ones are not visible.
    resolveReference: async (_resource: unknown, _principal: unknown, iri: string) =>
      iri.includes('unknown') ? null : iri.split('/').pop()!,
  };
  const denormalizer = {
    apply: async (_resource: unknown, page: Record<string, unknown>, members: object) => {
      Object.assign(page, members);
      return { violations: [] };
    },
  };
  const trackingPages = { normalize: () => [], violations: async () => [] };
  const service = new WorkspacesService(
    registry as unknown as ResourceRegistry,
    data as unknown as DataProvider,
    denormalizer as unknown as Denormalizer,
    trackingPages as unknown as TrackingPagesService,
    media as MediaService,
    deletion as WorkspaceDeletion,
    workspaceStore as WorkspaceStore,
    pageStore,
    smtp,
    members as TeamMemberStore,
    new TeamsService(teamStore as TeamStore, members as TeamMemberStore),
  );
  return { service, world };
}

function caller(adminTeams: string[] = []): Principal {
  return {
    userId: 'u-1',
    email: 'jo.doe@example.test',
    teamIds: [...adminTeams],
    adminTeamIds: [...adminTeams],
    workspaceIds: [],
  };
}

function context(
  service: WorkspacesService,
  operation: 'post' | 'put' | 'delete',
  body: Record<string, unknown>,
  principal = caller(),
  nested: Record<string, Record<string, unknown> | null> = {},
): WriteContext<WorkspaceWrite> {
  return {
    principal,
    operation,
    resource: {} as WriteContext['resource'],
    em: {} as EntityManager,
    body,
    nested,
    state: service.begin(),
  };
}

/** A workspace as the denormalizer leaves it: the stored row (PUT) or a new one (POST). */
function workspace(values: Partial<Workspace> = {}): Workspace {
  return { workflowsOrder: ['a'], logo: null, emailSettings: {}, ...values } as Workspace;
}

/** prepare, validate and afterWrite of one write, as the pipeline runs them. */
async function write(
  service: WorkspacesService,
  entity: Workspace,
  ctx: WriteContext<WorkspaceWrite>,
) {
  await service.prepare(entity, ctx);
  const violations = await service.validate(entity, ctx);
  if (violations.length === 0) await service.afterWrite(entity, ctx);
  return violations;
}

describe('WorkspacesService: the team of a new workspace', () => {
  it('without a name: the first team the caller administers, else a new one named after them', async () => {
    const { service, world } = setUp();
    world.administered = [
      { id: 't-old', name: 'Old' },
      { id: 't-new', name: 'New' },
    ];
    const first = workspace();
    await service.prepare(
      first,
      context(service, 'post', {}, caller(['t-old', 't-new']), { team: {} }),
    );
    expect(first.team.id).toBe('t-old');

    world.administered = [];
    const principal = caller();
    const second = workspace();
    await service.prepare(second, context(service, 'post', {}, principal, { team: null }));
    expect(world.teamsCreated).toEqual(['jo.doe']);
    expect(second.team.id).toBe('new-team-1');
    // The new team is the caller's for the rest of the request.
    expect(principal).toMatchObject({ teamIds: ['new-team-1'], adminTeamIds: ['new-team-1'] });
  });

  it('with a name: the caller’s team of that name, else a new team of that name', async () => {
    const { service, world } = setUp();
    world.administered = [{ id: 't-shop', name: 'Shop' }];
    const named = workspace();
    await service.prepare(
      named,
      context(service, 'post', {}, caller(['t-shop']), { team: { name: ' Shop ' } }),
    );
    expect(named.team.id).toBe('t-shop');
    const other = workspace();
    await service.prepare(
      other,
      context(service, 'post', {}, caller(['t-shop']), { team: { name: 'Brand' } }),
    );
    expect(world.teamsCreated).toEqual(['Brand']);
  });

  it('refuses a name that is no string or too long (422), making no team', async () => {
    const { service, world } = setUp();
    for (const name of [42, 'x'.repeat(256)]) {
      const error = await service
        .prepare(workspace(), context(service, 'post', {}, caller(), { team: { name } }))
        .catch((e) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).violations[0].propertyPath).toBe('team.name');
    }
    expect(world.teamsCreated).toEqual([]);
  });

  it('refuses a team the caller only belongs to (403); a new workspace gets its id at once', async () => {
    const { service } = setUp();
    const principal = { ...caller(['t-admin']), teamIds: ['t-admin', 't-member'] };
    await expect(
      service.prepare(
        workspace({ team: { id: 't-member' } as never }),
        context(service, 'post', {}, principal),
      ),
    ).rejects.toThrow(ForbiddenError);
    const entity = workspace({ team: { id: 't-admin' } as never });
    const ctx = context(service, 'post', {}, principal);
    await write(service, entity, ctx);
    expect(entity.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(principal.workspaceIds).toEqual([entity.id]);
  });
});

describe('WorkspacesService: PUT replaces', () => {
  it('puts the optional attributes left out back to their defaults', async () => {
    const { service } = setUp();
    const stored = workspace({
      id: WS,
      workflowsOrder: ['w1'],
      logo: { id: IMAGE } as never,
      emailSettings: { signature: 'Hi' },
      defaultTrackingPage: { id: 'p' } as never,
    });
    await service.prepare(stored, context(service, 'put', { title: 'T' }));
    expect(stored).toMatchObject({
      workflowsOrder: [],
      logo: null,
      emailSettings: { logo: null, signature: null, smtpCredentials: null },
      defaultTrackingPage: null,
    });
  });
});

describe('WorkspacesService: the default tracking page', () => {
  it('an IRI must name a page of this workspace', async () => {
    const { service, world } = setUp();
    world.workspaces.set(WS, { team: 't', page: null });
    world.pages.set(
      'mine',
      Object.assign(new TrackingPage(), { id: 'mine', workspace: { id: WS } }),
    );
    world.pages.set(
      'theirs',
      Object.assign(new TrackingPage(), { id: 'theirs', workspace: { id: 'other' } }),
    );
    const theirs = workspace({ id: WS, defaultTrackingPage: { id: 'theirs' } as never });
    expect(
      await write(
        service,
        theirs,
        context(service, 'put', { defaultTrackingPage: '/tracking_pages/theirs' }),
      ),
    ).toEqual([
      expect.objectContaining({
        propertyPath: 'defaultTrackingPage',
        message: 'This tracking page does not belong to this workspace.',
      }),
    ]);
    const mine = workspace({ id: WS, defaultTrackingPage: { id: 'mine' } as never });
    expect(
      await write(
        service,
        mine,
        context(service, 'put', { defaultTrackingPage: '/tracking_pages/mine' }),
      ),
    ).toEqual([]);
  });

  it('an object on POST creates the page, then points the new workspace at it', async () => {
    const { service, world } = setUp();
    const entity = workspace({ team: { id: 't' } as never });
    const ctx = context(service, 'post', {}, caller(['t']), {
      defaultTrackingPage: { title: 'Track', workspace: '/workspaces/elsewhere' },
    });
    await service.prepare(entity, ctx);
    expect(ctx.state.pageOperation).toBe('post');
    world.workspaces.set(entity.id, { team: 't', page: null });
    await service.afterWrite(entity, ctx);
    const [page] = world.pages.values();
    // The page belongs to this workspace whatever the object says.
    expect(page).toMatchObject({ title: 'Track', workspace: { id: entity.id } });
    expect(world.workspaces.get(entity.id)!.page).toBe(page.id);
  });

  it('an object on PUT updates the current default page; null unsets it and keeps the page', async () => {
    const { service, world } = setUp();
    const current = Object.assign(new TrackingPage(), {
      id: 'current',
      title: 'Old',
      workspace: { id: WS },
    });
    world.pages.set('current', current);
    world.workspaces.set(WS, { team: 't', page: 'current' });
    const entity = workspace({ id: WS });
    const ctx = context(service, 'put', { defaultTrackingPage: {} }, caller(['t']), {
      defaultTrackingPage: { title: 'New' },
    });
    await service.prepare(entity, ctx);
    expect(ctx.state).toMatchObject({ page: current, pageOperation: 'put' });
    await service.afterWrite(entity, ctx);
    expect(world.pages.get('current')!.title).toBe('New');
    expect(world.pages.size).toBe(1);

    const unset = workspace({ id: WS, defaultTrackingPage: { id: 'current' } as never });
    await service.prepare(
      unset,
      context(service, 'put', { defaultTrackingPage: null }, caller(['t']), {
        defaultTrackingPage: null,
      }),
    );
    expect(unset.defaultTrackingPage).toBeNull();
    expect(world.pages.has('current')).toBe(true);
  });

  it('each write keeps its own state: a page of one write never lands in another', async () => {
    const { service } = setUp();
    const a = context(service, 'post', {}, caller(['t']), { defaultTrackingPage: { title: 'A' } });
    const b = context(service, 'post', {}, caller(['t']));
    const entity = workspace({ team: { id: 't' } as never });
    await service.prepare(entity, a);
    await service.prepare(entity, b);
    expect(a.state.page?.title).toBe('A');
    expect(b.state.page).toBeUndefined();
  });
});

describe('WorkspacesService: logo and e-mail settings', () => {
  it('a nested logo object is a 400; a logo that is no image a 422', async () => {
    const { service } = setUp();
    await expect(
      service.prepare(
        workspace({ id: WS }),
        context(service, 'put', { logo: {} }, caller(), { logo: {} }),
      ),
    ).rejects.toThrow(BadRequestError);
    const pdf = workspace({ id: WS, logo: { id: PDF } as never });
    expect(await write(service, pdf, context(service, 'put', { logo: `/media/${PDF}` }))).toEqual([
      expect.objectContaining({ propertyPath: 'logo', message: 'This file is not a valid image.' }),
    ]);
  });

  it('stores the e-mail logo as {id, filePath} and follows the copy attaching makes', async () => {
    const { service, world } = setUp();
    world.workspaces.set(WS, { team: 't', page: null });
    world.copies.set(IMAGE, 'copy-of-image');
    const entity = workspace({ id: WS, logo: { id: IMAGE } as never });
    const ctx = context(service, 'put', {
      logo: `/media/${IMAGE}`,
      emailSettings: { logo: `/media/${IMAGE}`, signature: 'Regards', extra: 'dropped' },
    });
    expect(await write(service, entity, ctx)).toEqual([]);
    expect(entity.emailSettings).toEqual({
      logo: { id: IMAGE, filePath: '/files/logo.png' },
      signature: 'Regards',
      smtpCredentials: null,
    });
    expect(world.updates).toEqual(['logo copy-of-image', 'e-mail logo copy-of-image']);
  });

  it('reports unknown or non-image e-mail logos and long signatures; wrong types are 400', async () => {
    const { service } = setUp();
    const violations = await write(
      service,
      workspace({ id: WS }),
      context(service, 'put', {
        emailSettings: { logo: '/media/unknown', signature: 'x'.repeat(10001) },
      }),
    );
    expect(violations.map((v) => v.propertyPath)).toEqual([
      'emailSettings.logo',
      'emailSettings.signature',
    ]);
    const pdf = await write(
      service,
      workspace({ id: WS }),
      context(service, 'put', { emailSettings: { logo: `/media/${PDF}` } }),
    );
    expect(pdf[0].message).toBe('This file is not a valid image.');
    for (const emailSettings of [
      'text',
      { signature: 1 },
      { logo: {} },
      { smtpCredentials: '/nope/1' },
    ])
      await expect(
        service.prepare(workspace({ id: WS }), context(service, 'put', { emailSettings })),
      ).rejects.toThrow(BadRequestError);
  });

  it('SMTP credentials must be smtp credentials of the workspace’s own team', async () => {
    const { service, world } = setUp();
    world.workspaces.set(WS, { team: 't-own', page: null });
    const check = async (credentials: { type: string; team_id: string } | undefined) => {
      if (credentials) world.credentials.set(CREDENTIALS, credentials);
      else world.credentials.delete(CREDENTIALS);
      const body = { emailSettings: { smtpCredentials: `/credentials/${CREDENTIALS}` } };
      return (await write(service, workspace({ id: WS }), context(service, 'put', body))).map(
        (v) => v.message,
      );
    };
    expect(await check({ type: 'smtp', team_id: 't-own' })).toEqual([]);
    expect(await check({ type: 'smtp', team_id: 't-other' })).toEqual([
      'The credentials must belong to the team of the workspace.',
    ]);
    expect(await check({ type: 'shopify', team_id: 't-own' })).toEqual([
      'The credentials must be of type smtp.',
    ]);
    expect(await check(undefined)).toEqual([`Item not found for "/credentials/${CREDENTIALS}".`]);
  });
});

describe('WorkspacesService: deletion', () => {
  it('deletes or schedules, and the workspace is gone for the rest of the request', async () => {
    const { service, world } = setUp();
    const principal = { ...caller(['t']), workspaceIds: [WS, 'other'] };
    await service.remove(workspace({ id: WS }), context(service, 'delete', {}, principal));
    expect(world.deleted).toEqual([WS]);
    expect(principal.workspaceIds).toEqual(['other']);
  });
});
