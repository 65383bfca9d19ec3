import type { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../access/principal';
import { ViolationCodes } from '../common/errors/api-errors';
import type { WriteContext } from '../hydra/core/resource-hooks';
import type { WorkspacePageStore } from '../workspaces/workspace-page-store';
import type { Workspace } from '../workspaces/workspace.entity';
import { DEFAULT_DROPSHIPPER_SETTINGS } from './dropshipper-settings';
import { TrackingPage } from './tracking-page.entity';
import type { TrackingPageStore } from './tracking-page-store';
import { builderWithDefaults } from './page-builder';
import { type PageWriteState, TrackingPagesService } from './tracking-pages.service';

type PageRow = { id: string; workspaceId: string; subdomain: string; settings?: object };

/** tracking_page rows in memory: what the service asks of TrackingPageStore. */
class MemoryPageStore implements Pick<TrackingPageStore, 'subdomainTaken' | 'defaultPageSettings'> {
  readonly rows = new Map<string, PageRow>();
  /** The default page of each workspace (MemoryWorkspaceStore writes it). */
  readonly defaults = new Map<string, string>();

  add(row: PageRow): void {
    this.rows.set(row.id, row);
  }

  async subdomainTaken(_runner: unknown, subdomain: string, exceptId: string | null) {
    return [...this.rows.values()].some((p) => p.subdomain === subdomain && p.id !== exceptId);
  }

  async defaultPageSettings(_runner: unknown, workspaceId: string) {
    const id = this.defaults.get(workspaceId);
    return id ? (this.rows.get(id)?.settings as Record<string, unknown> | undefined) : undefined;
  }
}

/** The workspace's default page, as WorkspacePageStore keeps it. */
class MemoryWorkspaceStore implements Pick<WorkspacePageStore, 'defaultPageUnlessSet'> {
  constructor(private readonly pages: MemoryPageStore) {}

  async defaultPageUnlessSet(_runner: unknown, workspaceId: string, pageId: string) {
    if (!this.pages.defaults.has(workspaceId)) this.pages.defaults.set(workspaceId, pageId);
  }
}

function setUp() {
  const pages = new MemoryPageStore();
  const service = new TrackingPagesService(
    {} as DataSource,
    pages as unknown as TrackingPageStore,
    new MemoryWorkspaceStore(pages) as unknown as WorkspacePageStore,
  );
  return { pages, service };
}

function pageOf(values: Partial<TrackingPage>): TrackingPage {
  return Object.assign(new TrackingPage(), {
    id: 'p-new',
    subdomain: 'my-shop',
    domain: null,
    domainEnabled: false,
    builder: {},
    dropshipperSettings: {},
    workspace: { id: 'ws-1' } as Workspace,
    ...values,
  });
}

/**
 * One write through the service's hooks, as the pipeline calls them: begin on the stored page
 * (PUT), then the body applied, prepare, validate, afterWrite when valid.
 */
async function write(
  service: TrackingPagesService,
  operation: 'post' | 'put',
  stored: TrackingPage,
  body: Partial<TrackingPage>,
) {
  const base = {
    principal: { userId: 'u-1' } as Principal,
    operation,
    resource: {} as WriteContext['resource'],
    em: {} as EntityManager,
    body: body as Record<string, unknown>,
    nested: {},
  };
  const state = service.begin(stored, { ...base, state: undefined });
  Object.assign(stored, body);
  const ctx: WriteContext<PageWriteState> = { ...base, state };
  service.prepare(stored, ctx);
  const violations = await service.validate(stored, ctx);
  if (violations.length === 0) await service.afterWrite(stored, ctx);
  return { page: stored, violations };
}

describe('TrackingPagesService', () => {
  describe('subdomains', () => {
    it('refuses one another page uses, and reserved names', async () => {
      const { pages, service } = setUp();
      pages.add({ id: 'p-1', workspaceId: 'ws-2', subdomain: 'taken-shop' });
      for (const subdomain of ['taken-shop', 'www', 'api']) {
        const { violations } = await write(service, 'post', pageOf({}), { subdomain });
        expect(violations).toEqual([
          {
            propertyPath: 'subdomain',
            message: 'This subdomain is already taken.',
            code: ViolationCodes.unique,
          },
        ]);
      }
    });

    it('lets a page keep its own subdomain on PUT', async () => {
      const { pages, service } = setUp();
      pages.add({ id: 'p-1', workspaceId: 'ws-1', subdomain: 'my-shop' });
      const stored = pageOf({ id: 'p-1', subdomain: 'my-shop' });
      const { violations } = await write(service, 'put', stored, { title: 'New title' });
      expect(violations).toEqual([]);
    });

    it('names a wrong form precisely, before asking whether it is free', async () => {
      const { pages, service } = setUp();
      const taken = jest.spyOn(pages, 'subdomainTaken');
      const bad = await write(service, 'post', pageOf({}), { subdomain: 'My_Shop' });
      expect(bad.violations).toEqual([
        {
          propertyPath: 'subdomain',
          message: 'This value is not valid.',
          code: ViolationCodes.regex,
        },
      ]);
      const long = await write(service, 'post', pageOf({}), { subdomain: 'a'.repeat(64) });
      expect(long.violations[0]).toMatchObject({ code: ViolationCodes.tooLong });
      expect(taken).not.toHaveBeenCalled();
    });

    it('checks a subdomain for /subdomain/check the same way', async () => {
      const { pages, service } = setUp();
      pages.add({ id: 'p-1', workspaceId: 'ws-1', subdomain: 'shop-one' });
      await expect(service.subdomainAvailable({ query: jest.fn() }, 'shop-one')).resolves.toBe(
        false,
      );
      await expect(service.subdomainAvailable({ query: jest.fn() }, 'status')).resolves.toBe(false);
      await expect(service.subdomainAvailable({ query: jest.fn() }, 'shop-two')).resolves.toBe(
        true,
      );
    });
  });

  describe('the default page of a workspace', () => {
    it('is the first page created; later ones and PUTs leave it', async () => {
      const { pages, service } = setUp();
      await write(service, 'post', pageOf({ id: 'p-1' }), { subdomain: 'first-shop' });
      await write(service, 'post', pageOf({ id: 'p-2' }), { subdomain: 'second-shop' });
      await write(service, 'put', pageOf({ id: 'p-2', subdomain: 'second-shop' }), {
        title: 'x',
      });
      expect(pages.defaults.get('ws-1')).toBe('p-1');
    });

    it('is not set by a write that fails validation', async () => {
      const { pages, service } = setUp();
      await write(service, 'post', pageOf({ id: 'p-1' }), { subdomain: 'www' });
      expect(pages.defaults.has('ws-1')).toBe(false);
    });

    it('decides what other public views hide (none without a default page)', async () => {
      const { pages, service } = setUp();
      await expect(service.defaultPageHiding('ws-1')).resolves.toEqual(
        DEFAULT_DROPSHIPPER_SETTINGS,
      );
      pages.add({
        id: 'p-1',
        workspaceId: 'ws-1',
        subdomain: 'first-shop',
        settings: { enabled: true, blacklistCarriers: ['dhl'], unknown: 1 },
      });
      pages.defaults.set('ws-1', 'p-1');
      await expect(service.defaultPageHiding('ws-1')).resolves.toEqual({
        ...DEFAULT_DROPSHIPPER_SETTINGS,
        enabled: true,
        blacklistCarriers: ['dhl'],
      });
    });
  });

  describe('custom domains', () => {
    it('are trimmed and lower-cased; a blank one is none', async () => {
      const { service } = setUp();
      const { page } = await write(service, 'post', pageOf({}), {
        domain: '  Track.Example.COM ',
      });
      expect(page.domain).toBe('track.example.com');
      const cleared = await write(service, 'post', pageOf({}), { domain: '   ' });
      expect(cleared.page.domain).toBeNull();
    });

    it('refuses what is not a host name', async () => {
      const { service } = setUp();
      const { violations } = await write(service, 'post', pageOf({}), { domain: 'localhost' });
      expect(violations).toEqual([
        {
          propertyPath: 'domain',
          message: 'This value is not a valid hostname.',
          code: ViolationCodes.invalid,
        },
      ]);
    });

    it('lose their verification when the domain changes, not when it stays', async () => {
      const { service } = setUp();
      const verified = () =>
        pageOf({ id: 'p-1', domain: 'track.example.com', domainEnabled: true });
      const same = await write(service, 'put', verified(), { domain: 'TRACK.example.com' });
      expect(same.page.domainEnabled).toBe(true);
      const untouched = await write(service, 'put', verified(), { title: 'Renamed' });
      expect(untouched.page.domainEnabled).toBe(true);
      const moved = await write(service, 'put', verified(), { domain: 'other.example.com' });
      expect(moved.page.domainEnabled).toBe(false);
      const removed = await write(service, 'put', verified(), { domain: null });
      expect(removed.page.domainEnabled).toBe(false);
    });
  });

  describe('builder and dropshipper settings', () => {
    it('keep a builder (the reference’s members, null by default) whose colours and sizes are well formed', async () => {
      const { service } = setUp();
      const empty = await write(service, 'post', pageOf({ builder: undefined }), {});
      expect(empty.page.builder).toEqual(builderWithDefaults({}));
      expect((empty.page.builder as Record<string, unknown>).seoTitle).toBeNull();
      const { violations } = await write(service, 'post', pageOf({}), {
        builder: {
          header: { backgroundColor: 'red', fontSize: -1 },
          trackButton: { color: '#fff' },
        },
      });
      expect(violations.map((v) => v.propertyPath)).toEqual([
        'builder.header.backgroundColor',
        'builder.header.fontSize',
      ]);
    });

    it('store dropshipper settings in their canonical form and report bad values', async () => {
      const { service } = setUp();
      const ok = await write(service, 'post', pageOf({}), {
        dropshipperSettings: { enabled: true, stopWords: 'Shenzhen', extra: 'dropped' },
      });
      expect(ok.violations).toEqual([]);
      expect(ok.page.dropshipperSettings).toEqual({
        ...DEFAULT_DROPSHIPPER_SETTINGS,
        enabled: true,
        stopWords: 'Shenzhen',
      });
      const bad = await write(service, 'post', pageOf({}), {
        dropshipperSettings: { originCountryReplacement: 'Germany' },
      });
      expect(bad.violations.map((v) => v.propertyPath)).toEqual([
        'dropshipperSettings.originCountryReplacement',
      ]);
    });

    it('name the problems of a page given inside another resource under its path', async () => {
      const { service } = setUp();
      const page = pageOf({
        subdomain: 'www',
        dropshipperSettings: { originCountryReplacement: 'Germany' },
      });
      const normalized = service.normalize(page, 'defaultTrackingPage.');
      const violations = await service.violations(
        page,
        { query: jest.fn() },
        'defaultTrackingPage.',
        normalized,
      );
      expect(violations.map((v) => v.propertyPath)).toEqual([
        'defaultTrackingPage.dropshipperSettings.originCountryReplacement',
        'defaultTrackingPage.subdomain',
      ]);
    });

    it('snapshot a new theme under a new id when regenerated', () => {
      const { service } = setUp();
      const page = pageOf({ builder: { header: { backgroundColor: '#0b3d2e' } } });
      service.regenerateTheme(page);
      const first = page.customThemeId;
      expect(first).toMatch(/^[0-9a-f-]{36}$/);
      expect(page.customTheme).toMatchObject({ id: first });
      service.regenerateTheme(page);
      expect(page.customThemeId).not.toBe(first);
    });
  });
});
