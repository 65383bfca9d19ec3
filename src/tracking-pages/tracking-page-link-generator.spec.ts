import type { DataSource } from 'typeorm';
import type { Principal } from '../access/principal';
import type { HydraApi } from '../hydra/controller/hydra-api';
import { ApiError, ValidationError } from '../common/errors/api-errors';
import type { ShipmentPageStore } from '../shipments/shipment-page-store';
import { TrackingPageLinkGenerator } from './tracking-page-link-generator';
import type { TrackingPageLinksService } from './tracking-page-links.service';
import type { TrackingPageStore } from './tracking-page-store';

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const PAGE = uuid(1);
const S1 = uuid(11);
const S2 = uuid(12);
const FOREIGN = uuid(21);
const INVISIBLE = uuid(31);
const ORIGIN = 'http://127.0.0.1:3000';

/** Pages and shipments in memory, with what the caller sees and which workspace holds them. */
function setUp() {
  const workspaceOf = new Map<string, string>([
    [PAGE, 'ws-1'],
    [S1, 'ws-1'],
    [S2, 'ws-1'],
    [FOREIGN, 'ws-2'],
    [INVISIBLE, 'ws-1'],
  ]);
  const numbers = new Map([['TM200ONE1TM', S1]]);
  const visible = new Set([PAGE, S1, S2, FOREIGN]);
  const made: string[] = [];
  const api = {
    resource: (target: unknown) => target,
    data: {
      resolveReference: async (_resource: unknown, _principal: unknown, raw: string) => {
        const id = raw.split('/').pop()!;
        return visible.has(id) ? id : null;
      },
    },
  };
  const pages: Pick<TrackingPageStore, 'workspaceOf'> = {
    workspaceOf: async (_runner, id) => workspaceOf.get(id),
  };
  const shipments: Pick<ShipmentPageStore, 'inWorkspace' | 'withTrackingNumber'> = {
    inWorkspace: async (_runner, id, workspaceId) => workspaceOf.get(id) === workspaceId,
    withTrackingNumber: async (_runner, workspaceId, number) => {
      const id = numbers.get(number);
      return id && workspaceOf.get(id) === workspaceId ? id : undefined;
    },
  };
  const links = {
    hashFor: async (_runner: unknown, _ws: string, pageId: string, shipmentId: string) => {
      made.push(shipmentId);
      return `hash-${pageId.slice(-2)}-${shipmentId.slice(-2)}`;
    },
    shipmentMatching: jest.fn(),
    linkOf: (hash: string, origin: string) => `${origin}/t/${hash}`,
  };
  const generator = new TrackingPageLinkGenerator(
    api as unknown as HydraApi,
    links as unknown as TrackingPageLinksService,
    { transaction: async (work: (em: unknown) => unknown) => work({}) } as unknown as DataSource,
    pages as TrackingPageStore,
    shipments as ShipmentPageStore,
  );
  return { generator, made, links };
}

const principal = { userId: 'u-1' } as Principal;

describe('TrackingPageLinkGenerator', () => {
  it('links a shipment given by id or IRI, or by tracking number', async () => {
    const { generator } = setUp();
    const expected = `${ORIGIN}/t/hash-01-11`;
    await expect(
      generator.one(principal, { trackingPageId: PAGE, filter: { id: S1 } }, ORIGIN),
    ).resolves.toBe(expected);
    await expect(
      generator.one(
        principal,
        { trackingPageId: `/tracking_pages/${PAGE}`, filter: { id: `/shipments/${S1}` } },
        ORIGIN,
      ),
    ).resolves.toBe(expected);
    await expect(
      generator.one(principal, { trackingPageId: PAGE, trackingNumber: ' TM200ONE1TM ' }, ORIGIN),
    ).resolves.toBe(expected);
  });

  it('links the newest shipment matching an e-mail or order numbers', async () => {
    const { generator, links } = setUp();
    links.shipmentMatching.mockResolvedValue(S2);
    await expect(
      generator.one(principal, { trackingPageId: PAGE, filter: { email: 'a@b.test' } }, ORIGIN),
    ).resolves.toBe(`${ORIGIN}/t/hash-01-12`);
    expect(links.shipmentMatching).toHaveBeenCalledWith({}, 'ws-1', { email: 'a@b.test' });
  });

  it('answers the same 422 for a missing, invisible or foreign shipment', async () => {
    const { generator, made } = setUp();
    for (const id of [uuid(99), INVISIBLE, FOREIGN, 'not-an-id']) {
      const error = await generator
        .one(principal, { trackingPageId: PAGE, filter: { id } }, ORIGIN)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).violations).toEqual([
        expect.objectContaining({
          propertyPath: 'filter.id',
          message: `Item not found for "/shipments/${id}".`,
        }),
      ]);
    }
    expect(made).toEqual([]);
  });

  it('refuses a page the caller cannot see, a blank shipment and two ids for one link', async () => {
    const { generator } = setUp();
    await expect(
      generator.one(principal, { trackingPageId: uuid(98), filter: { id: S1 } }, ORIGIN),
    ).rejects.toMatchObject({ violations: [{ propertyPath: 'trackingPageId' }] });
    await expect(
      generator.one(principal, { trackingPageId: PAGE, filter: {} }, ORIGIN),
    ).rejects.toMatchObject({ violations: [{ propertyPath: 'filter.id' }] });
    await expect(
      generator.one(principal, { trackingPageId: PAGE, trackingNumber: 'NOPE' }, ORIGIN),
    ).rejects.toMatchObject({ violations: [{ propertyPath: 'trackingNumber' }] });
    const two = await generator
      .one(principal, { trackingPageId: PAGE, filter: { id: [S1, S2] } }, ORIGIN)
      .catch((e: unknown) => e);
    expect(two).toBeInstanceOf(ApiError);
    expect((two as ApiError).status).toBe(400);
  });

  it('links many shipments in their order, or none, naming every bad one', async () => {
    const { generator } = setUp();
    await expect(
      generator.many(principal, { trackingPageId: PAGE, filter: { id: [S2, S1] } }, ORIGIN),
    ).resolves.toEqual([
      { id: S2, link: `${ORIGIN}/t/hash-01-12` },
      { id: S1, link: `${ORIGIN}/t/hash-01-11` },
    ]);
    const error = await generator
      .many(
        principal,
        { trackingPageId: PAGE, filter: { id: [S1, FOREIGN, S2, INVISIBLE] } },
        ORIGIN,
      )
      .catch((e: unknown) => e);
    expect((error as ValidationError).violations.map((v) => v.propertyPath)).toEqual([
      'filter.id[1]',
      'filter.id[3]',
    ]);
  });

  it('takes one to a thousand shipments in bulk', async () => {
    const { generator } = setUp();
    await expect(
      generator.many(principal, { trackingPageId: PAGE, filter: { id: [] } }, ORIGIN),
    ).rejects.toMatchObject({ violations: [{ message: 'This value should not be blank.' }] });
    const many = Array.from({ length: 1001 }, () => S1);
    await expect(
      generator.many(principal, { trackingPageId: PAGE, filter: { id: many } }, ORIGIN),
    ).rejects.toMatchObject({
      violations: [{ message: 'This collection should contain 1000 elements or less.' }],
    });
  });
});
