import type { DataSource } from 'typeorm';
import { loadConfig } from '../config/load-config';
import { NotFoundError, ValidationError } from '../common/errors/api-errors';
import type { PublicShipmentRow, ShipmentPageStore } from '../shipments/shipment-page-store';
import type {
  CheckpointPageStore,
  PublicCheckpointRow,
} from '../tracking/checkpoints/checkpoint-page-store';
import type { LinkedPageRow, NewLink, TrackingPageLinkStore } from './tracking-page-link-store';
import { LINK_HASH, TrackingPageLinksService } from './tracking-page-links.service';

/** tracking_page_link rows in memory (one per page and shipment), with their pages. */
class MemoryLinkStore implements Pick<
  TrackingPageLinkStore,
  'insert' | 'hashOf' | 'hashesOf' | 'resolve'
> {
  readonly links: Array<NewLink & { id: string }> = [];
  readonly pages = new Map<
    string,
    Omit<LinkedPageRow, 'id' | 'tracking_page_id' | 'shipment_id'> & { enabled: boolean }
  >();

  async insert(_runner: unknown, link: NewLink) {
    if (this.links.some((l) => l.pageId === link.pageId && l.shipmentId === link.shipmentId))
      return undefined;
    this.links.push({ ...link, id: `l-${this.links.length + 1}` });
    return link.hash;
  }

  async hashOf(_runner: unknown, pageId: string, shipmentId: string) {
    return this.links.find((l) => l.pageId === pageId && l.shipmentId === shipmentId)?.hash;
  }

  async hashesOf(_runner: unknown, pageId: string, shipmentIds: readonly string[]) {
    return this.links
      .filter((l) => l.pageId === pageId && shipmentIds.includes(l.shipmentId))
      .map((l) => ({ shipment_id: l.shipmentId, hash: l.hash }));
  }

  async resolve(_runner: unknown, hash: string) {
    const link = this.links.find((l) => l.hash === hash);
    const page = link && this.pages.get(link.pageId);
    if (!link || !page?.enabled) return undefined;
    const { enabled: _enabled, ...columns } = page;
    return { ...columns, id: link.id, tracking_page_id: link.pageId, shipment_id: link.shipmentId };
  }
}

type StoredShipment = PublicShipmentRow & {
  workspace_id: string;
  email: string | null;
  order_numbers: string[];
};

/** Shipments in memory: what the links service asks of ShipmentPageStore. */
class MemoryShipments implements Pick<ShipmentPageStore, 'publicFacts' | 'newestMatching'> {
  readonly rows: StoredShipment[] = [];

  async publicFacts(id: string) {
    return this.rows.find((r) => r.id === id);
  }

  async newestMatching(
    _runner: unknown,
    workspaceId: string,
    filter: { email: string | null; orderNumbers: readonly string[] | null },
  ) {
    return this.rows
      .filter(
        (r) =>
          r.workspace_id === workspaceId &&
          (filter.email === null || r.email?.toLowerCase() === filter.email.toLowerCase()) &&
          (filter.orderNumbers === null ||
            r.order_numbers.some((n) => filter.orderNumbers!.includes(n))),
      )
      .sort((a, b) => b.created_at.getTime() - a.created_at.getTime())[0]?.id;
  }
}

class MemoryCheckpoints implements Pick<CheckpointPageStore, 'ofShipment'> {
  readonly rows: PublicCheckpointRow[] = [];

  async ofShipment(shipmentId: string) {
    return this.rows
      .filter((r) => r.shipment_id === shipmentId)
      .sort((a, b) => b.checkpoint_date.getTime() - a.checkpoint_date.getTime());
  }
}

function shipment(values: Partial<StoredShipment> & { id: string }): StoredShipment {
  return {
    workspace_id: 'ws-1',
    email: null,
    order_numbers: [],
    tracking_number: 'TM200ONE1TM',
    tracking_status: 'in_transit',
    origin_carrier: 'yunexpress',
    destination_carrier: 'dhl',
    origin_country: 'China',
    origin_country_iso2: 'CN',
    destination_country: 'Germany',
    destination_country_iso2: 'DE',
    shipped_at: new Date('2025-01-02T10:00:00Z'),
    expected_delivery_date: null,
    last_status_update: null,
    days_in_transit: 3,
    review: null,
    review_total_score: null,
    created_at: new Date('2025-01-01T10:00:00Z'),
    delivery_prediction: null,
    attention_codes: [],
    ...values,
  };
}

function setUp(env: NodeJS.ProcessEnv = {}) {
  const links = new MemoryLinkStore();
  const shipments = new MemoryShipments();
  const checkpoints = new MemoryCheckpoints();
  const service = new TrackingPageLinksService(
    {} as DataSource,
    loadConfig(env),
    links as unknown as TrackingPageLinkStore,
    shipments as unknown as ShipmentPageStore,
    checkpoints as unknown as CheckpointPageStore,
  );
  links.pages.set('p-1', {
    enabled: true,
    workspace_id: 'ws-1',
    reviews_enabled: true,
    title: 'Shop',
    subdomain: 'shop',
    domain: null,
    builder: {},
    custom_theme_id: null,
    dropshipper_settings: null,
    sidebar_field: null,
    tracking_number_field: null,
  });
  return { links, shipments, checkpoints, service };
}

const runner = { query: jest.fn() };

describe('TrackingPageLinksService', () => {
  describe('links', () => {
    it('are made once per page and shipment, with an unguessable hash', async () => {
      const { links, service } = setUp();
      const first = await service.hashFor(runner, 'ws-1', 'p-1', 's-1');
      expect(first).toMatch(LINK_HASH);
      expect(Buffer.from(first, 'base64url')).toHaveLength(32);
      await expect(service.hashFor(runner, 'ws-1', 'p-1', 's-1')).resolves.toBe(first);
      const otherPage = await service.hashFor(runner, 'ws-1', 'p-2', 's-1');
      expect(otherPage).not.toBe(first);
      expect(links.links).toHaveLength(2);
    });

    it('of several shipments reuse the existing ones and make the missing ones', async () => {
      const { service } = setUp();
      const existing = await service.hashFor(runner, 'ws-1', 'p-1', 's-1');
      const hashes = await service.hashesFor(runner, 'ws-1', 'p-1', ['s-1', 's-2']);
      expect(hashes.get('s-1')).toBe(existing);
      expect(hashes.get('s-2')).toMatch(LINK_HASH);
      await expect(service.hashesFor(runner, 'ws-1', 'p-1', [])).resolves.toEqual(new Map());
    });

    it('are addressed at the tracking base, else the public URL, else the request', () => {
      const origin = 'http://127.0.0.1:3000';
      expect(setUp().service.linkOf('abc', origin)).toBe(`${origin}/t/abc`);
      expect(setUp({ PUBLIC_URL: 'https://api.example.com/' }).service.linkOf('abc', origin)).toBe(
        'https://api.example.com/t/abc',
      );
      expect(
        setUp({
          PUBLIC_URL: 'https://api.example.com',
          PUBLIC_TRACKING_BASE_URL: 'https://track.example.com//',
        }).service.linkOf('abc', origin),
      ).toBe('https://track.example.com/t/abc');
    });
  });

  describe('the shipment of a link filter', () => {
    it('is the newest of the workspace with that e-mail and one of the order numbers', async () => {
      const { shipments, service } = setUp();
      shipments.rows.push(
        shipment({ id: 's-old', email: 'Buyer@Example.test', order_numbers: ['1001'] }),
        shipment({
          id: 's-new',
          email: 'buyer@example.test',
          order_numbers: ['1001'],
          created_at: new Date('2025-02-01T00:00:00Z'),
        }),
        shipment({
          id: 's-other',
          workspace_id: 'ws-2',
          email: 'buyer@example.test',
          order_numbers: ['1001'],
          created_at: new Date('2025-03-01T00:00:00Z'),
        }),
      );
      await expect(
        service.shipmentMatching(runner, 'ws-1', {
          email: 'BUYER@example.test',
          orderNumbers: ['1001'],
        }),
      ).resolves.toBe('s-new');
    });

    it('missing is a violation naming the filter given', async () => {
      const { service } = setUp();
      const byEmail = service.shipmentMatching(runner, 'ws-1', { email: 'x@example.test' });
      await expect(byEmail).rejects.toMatchObject({
        violations: [{ propertyPath: 'filter.email' }],
      });
      const byOrder = service.shipmentMatching(runner, 'ws-1', { orderNumbers: ['9'] });
      await expect(byOrder).rejects.toBeInstanceOf(ValidationError);
      await expect(byOrder).rejects.toMatchObject({
        violations: [{ propertyPath: 'filter.orderNumbers' }],
      });
    });
  });

  describe('resolving a link', () => {
    it('is a 404 for a malformed hash, without a look-up', async () => {
      const { links, service } = setUp();
      const resolve = jest.spyOn(links, 'resolve');
      await expect(service.resolve('short')).rejects.toBeInstanceOf(NotFoundError);
      await expect(service.resolve('x'.repeat(20) + '/..')).rejects.toBeInstanceOf(NotFoundError);
      expect(resolve).not.toHaveBeenCalled();
    });

    it('is a 404 for an unknown link and for a disabled page', async () => {
      const { links, service } = setUp();
      await expect(service.resolve('a'.repeat(43))).rejects.toBeInstanceOf(NotFoundError);
      const hash = await service.hashFor(runner, 'ws-1', 'p-1', 's-1');
      await expect(service.resolve(hash)).resolves.toMatchObject({ shipmentId: 's-1' });
      links.pages.get('p-1')!.enabled = false;
      await expect(service.resolve(hash)).rejects.toBeInstanceOf(NotFoundError);
    });
  });

  describe('the public view', () => {
    it('hides what the page hides, shows the review, checkpoints newest first', async () => {
      const { links, shipments, checkpoints, service } = setUp();
      links.pages.get('p-1')!.dropshipper_settings = {
        enabled: true,
        blacklistCarriers: ['YunExpress'],
        stopWords: 'Shenzhen',
      };
      shipments.rows.push(shipment({ id: 's-1', review: '/reviews/r-1', review_total_score: 4.5 }));
      const at = (iso: string) => new Date(iso);
      checkpoints.rows.push(
        {
          shipment_id: 's-1',
          checkpoint_date: at('2025-01-02T00:00:00Z'),
          status: 'in_transit',
          info: 'Departed Shenzhen hub',
          location: 'Shenzhen',
          country_iso2: 'CN',
          carrier: 'yunexpress',
        },
        {
          shipment_id: 's-1',
          checkpoint_date: at('2025-01-03T00:00:00Z'),
          status: 'in_transit',
          info: 'Arrived',
          location: 'Leipzig',
          country_iso2: 'DE',
          carrier: 'dhl',
        },
      );
      const hash = await service.hashFor(runner, 'ws-1', 'p-1', 's-1');
      const view = await service.view(hash);
      expect(view.shipment).toMatchObject({
        originCarrier: null,
        destinationCarrier: 'dhl',
        review: '/reviews/r-1',
        reviewTotalScore: 4.5,
        createdAt: '2025-01-01T10:00:00+00:00',
      });
      expect(view.checkpoints.map((c) => [c.location, c.carrier])).toEqual([
        ['Leipzig', 'dhl'],
        [null, null],
      ]);
      expect(view.checkpoints[1].info).toBe('Departed hub');
      expect(view.trackingPage).toMatchObject({ subdomain: 'shop', reviewsEnabled: true });
    });

    it('is a 404 when the shipment is gone', async () => {
      const { service } = setUp();
      const hash = await service.hashFor(runner, 'ws-1', 'p-1', 's-gone');
      await expect(service.view(hash)).rejects.toBeInstanceOf(NotFoundError);
    });
  });
});
