import { brandOf } from './page-brand';
import {
  carrierTrackingUrl,
  fieldLabel,
  fieldValue,
  placeOf,
  shipmentPageModel,
  type ShipmentPageInput,
} from './shipment-page.model';
import { MESSAGES } from './i18n/messages';

describe('shipment page model', () => {
  const source = {
    trackingNumber: 'TM200X',
    orderNumbers: ['1001', '1002'],
    customFields: { ref: 'R-7', empty: '', n: 42 },
  };

  it('reads sidebarField / trackingNumberField values', () => {
    expect(fieldValue(null, source)).toBe('TM200X');
    expect(fieldValue('orderNumbers', source)).toBe('1001, 1002');
    expect(fieldValue('customFields.ref', source)).toBe('R-7');
    expect(fieldValue('n', source)).toBe('42');
    expect(fieldValue('empty', source)).toBe('TM200X');
    expect(fieldValue('orderNumbers', { ...source, orderNumbers: [] })).toBe('TM200X');
    expect(fieldLabel('orderNumbers', MESSAGES.de)).toBe('Bestellnummer');
    expect(fieldLabel(null, MESSAGES.de)).toBe('Sendungsnummer');
  });

  it('builds carrier links from https templates only, encoding the number', () => {
    expect(carrierTrackingUrl('https://c.example/t?n={trackingNumber}', 'A B/1')).toBe(
      'https://c.example/t?n=A%20B%2F1',
    );
    expect(carrierTrackingUrl('javascript:alert({trackingNumber})', 'X')).toBeNull();
    expect(carrierTrackingUrl('https://c.example/', 'X')).toBeNull();
    expect(carrierTrackingUrl(null, 'X')).toBeNull();
  });

  it('names places with the country in the page language', () => {
    expect(placeOf('Lille, FR', 'FR', 'Frankreich')).toBe('Lille, Frankreich');
    expect(placeOf(null, 'FR', 'France')).toBe('France');
    expect(placeOf('Paris, France', 'FR', 'France')).toBe('Paris, France');
    expect(placeOf('Hub 7', null, null)).toBe('Hub 7');
    expect(placeOf('  ', null, null)).toBeNull();
  });

  const input = (over: Partial<ShipmentPageInput> = {}): ShipmentPageInput => ({
    lang: 'de',
    timeZone: 'Europe/Berlin',
    tzFixed: true,
    brand: brandOf({
      builder: {},
      pageTitle: 'Shop',
      workspace: { title: 'W', logoPath: null },
      ownOrigins: [],
      defaultTitle: 'x',
    }),
    hash: 'h'.repeat(43),
    shipment: {
      trackingNumber: 'TM410X',
      trackingStatus: 'unsuccessful_delivery',
      originCarrier: 'ups',
      destinationCarrier: null,
      originCountry: 'United States',
      originCountryIso2: 'US',
      destinationCountry: null,
      destinationCountryIso2: 'DE',
      shippedAt: '2026-01-02T10:00:00+00:00',
      expectedDeliveryDate: '2026-01-06T10:00:00+00:00',
      lastStatusUpdate: '2026-01-05T23:30:00+00:00',
      daysInTransit: 3,
      createdAt: '2026-01-01T10:00:00+00:00',
      reviewTotalScore: null,
    },
    checkpoints: [
      {
        checkpointDate: '2026-01-05T23:30:00+00:00',
        status: 'unsuccessful_delivery',
        info: 'Nobody home',
        location: 'Berlin, DE',
        countryIso2: 'DE',
        carrier: 'ups',
      },
    ],
    fields: { sidebarField: null, trackingNumberField: null },
    extras: { orderNumbers: ['1001'], customFields: {} },
    carriers: new Map([
      [
        'ups',
        { code: 'ups', name: 'UPS', trackingUrlTemplate: 'https://ups.example/{trackingNumber}' },
      ],
    ]),
    items: [{ name: null, sku: 'SKU-1', imageUrl: 'https://cdn.example/a.png', qty: 2 }],
    itemImage: () => null,
    siblings: [],
    reviewsEnabled: true,
    reviewOutcome: null,
    ...over,
  });

  it.each([
    ['en', 'Arrives', 'Tue, Dec 2 – Thu, Dec 4'],
    ['de', 'Ankunft', 'Di., 2. – Do., 4. Dez.'],
    ['fr', 'Arrivée', 'mar. 2 – jeu. 4 déc.'],
    ['es', 'Llega', 'mar, 2 dic – jue, 4 dic'],
    ['it', 'Arrivo', 'mar 02 – gio 04 dic'],
    ['pt', 'Chega', 'ter., 2 de dez. – qui., 4 de dez.'],
    ['ru', 'Прибудет', 'вт, 2 дек. – чт, 4 дек.'],
  ] as const)(
    '%s: our window when the carrier gave no date, and a plain late line',
    (lang, label, days) => {
      const base = input();
      const model = shipmentPageModel(
        input({
          lang,
          shipment: {
            ...base.shipment,
            trackingStatus: 'in_transit',
            deliveryWindow: {
              earliest: '2025-12-02T09:00:00+00:00',
              latest: '2025-12-04T15:00:00+00:00',
            },
            runningLate: true,
          },
        }),
      );
      expect(model.delivery).toMatchObject({ label, range: true });
      expect(model.delivery?.value?.replace(/\s/g, ' ')).toBe(days.replace(/\s/g, ' '));
      expect(model.runningLate).toBe(MESSAGES[lang].runningLate);
      // Without a window (the carrier's date) or once delivered: no range, no late line.
      const plain = shipmentPageModel(input({ lang }));
      expect(plain.delivery).toMatchObject({ label: MESSAGES[lang].expectedDelivery });
      expect(plain.runningLate).toBeNull();
    },
  );

  it('shows the status, the exception on its step, dates in the zone, carrier link', () => {
    const model = shipmentPageModel(input());
    expect(model.status.title).toBe('Zustellversuch gescheitert');
    expect(model.steps.map((s) => s.state)).toEqual(['done', 'done', 'done', 'current', 'todo']);
    expect(model.steps[3]).toEqual({
      label: 'Zustellversuch gescheitert',
      state: 'current',
      tone: 'alert',
    });
    expect(model.delivery).toMatchObject({ label: 'Voraussichtliche Zustellung' });
    expect(model.delivery?.value).toBe('Dienstag, 6. Januar');
    expect(model.checkpoints[0]).toMatchObject({
      when: '06.01.2026, 00:30',
      location: 'Berlin, Deutschland',
    });
    expect(model.carrier).toEqual({
      name: 'UPS',
      url: 'https://ups.example/TM410X',
      linkText: 'Auf der Website von UPS verfolgen',
    });
    expect(model.route).toEqual({ from: 'Vereinigte Staaten', to: 'Deutschland' });
    expect(model.items).toEqual([{ name: 'SKU-1', qty: 2, image: null, initial: 'S' }]);
    expect(model.order).toBe('Bestellung 1001');
    expect(model.review).toBeNull();
    expect(model.languages.find((l) => l.current)?.href).toBe('?lang=de&tz=Europe%2FBerlin');
  });

  it('offers the review form once delivered when reviews are enabled', () => {
    const delivered = {
      ...input().shipment,
      trackingStatus: 'delivered',
      reviewTotalScore: 4,
    };
    const model = shipmentPageModel(input({ shipment: delivered, reviewOutcome: 'thanks' }));
    expect(model.review).toMatchObject({ given: 4, outcome: 'thanks' });
    expect(model.review?.stars.map((s) => s.value)).toEqual([5, 4, 3, 2, 1]);
    expect(model.delivery?.label).toBe('Zugestellt');
    expect(
      shipmentPageModel(input({ shipment: delivered, reviewsEnabled: false })).review,
    ).toBeNull();
  });
});
