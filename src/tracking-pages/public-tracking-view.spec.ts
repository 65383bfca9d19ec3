import { DEFAULT_DROPSHIPPER_SETTINGS } from './dropshipper-settings';
import {
  PublicCheckpoint,
  PublicShipment,
  parseStopWords,
  publicTrackingView,
} from './public-tracking-view';

const shipment: PublicShipment = {
  trackingNumber: 'LB123456789CN',
  trackingStatus: 'in_transit',
  originCarrier: 'china-post',
  destinationCarrier: 'usps',
  originCountry: 'China',
  originCountryIso2: 'CN',
  destinationCountry: 'United States',
  destinationCountryIso2: 'US',
  shippedAt: null,
  expectedDeliveryDate: null,
  lastStatusUpdate: null,
  daysInTransit: 3,
  createdAt: '2024-01-01T00:00:00+00:00',
};
const checkpoint: PublicCheckpoint = {
  checkpointDate: '2024-01-02T00:00:00+00:00',
  status: 'in_transit',
  info: '深圳 Departed from AliExpress sorting center',
  location: 'Shenzhen 深圳',
  countryIso2: 'CN',
  carrier: 'china-post',
};

describe('publicTrackingView', () => {
  it('shows everything as is when dropshipping is off', () => {
    const view = publicTrackingView(shipment, [checkpoint], DEFAULT_DROPSHIPPER_SETTINGS);
    expect(view).toEqual({ shipment, checkpoints: [checkpoint] });
  });

  it('hides carriers, origin, hieroglyphs and stop words when on', () => {
    const view = publicTrackingView(shipment, [checkpoint], {
      ...DEFAULT_DROPSHIPPER_SETTINGS,
      enabled: true,
      blacklistCarriers: ['China-Post'],
      originCountryReplacement: 'DE',
      stopWords: 'AliExpress, Shenzhen',
      hideHieroglyphs: true,
    });
    expect(view.shipment).toMatchObject({
      originCarrier: null,
      destinationCarrier: 'usps',
      originCountryIso2: 'DE',
      originCountry: 'Germany',
    });
    expect(view.checkpoints).toEqual([
      {
        ...checkpoint,
        carrier: null,
        countryIso2: 'DE',
        info: 'Departed from sorting center',
        location: null,
      },
    ]);
  });

  it('shows a placeholder checkpoint before the first one when asked', () => {
    const view = publicTrackingView(shipment, [], {
      ...DEFAULT_DROPSHIPPER_SETTINGS,
      enabled: true,
      displayPlaceholderCheckpoints: true,
    });
    expect(view.checkpoints).toEqual([
      expect.objectContaining({ placeholder: true, checkpointDate: shipment.createdAt }),
    ]);
  });

  it('reads stop words separated by commas or lines', () => {
    expect(parseStopWords(' a, b\nc ,, ')).toEqual(['a', 'b', 'c']);
    expect(parseStopWords(null)).toEqual([]);
  });
});
