import {
  generatedSecretName,
  pullIntervalSeconds,
  storeConnection,
  storeSyncOptions,
} from './store-connection';

const reach = { allowedHosts: ['127.0.0.1'], bigcommerceApiRoot: 'https://api.bigcommerce.com/' };

describe('storeConnection', () => {
  it('reaches a Shopify shop over https with a token, or client credentials', () => {
    expect(
      storeConnection(
        {
          type: 'shopify',
          parameters: { shopDomain: 'Acme.myshopify.com' },
          secrets: { accessToken: 'shpat_1', clientSecret: 'shpss_1' },
        },
        reach,
      ),
    ).toEqual({
      connection: {
        platform: 'shopify',
        shopDomain: 'acme.myshopify.com',
        baseUrl: 'https://acme.myshopify.com',
        auth: { accessToken: 'shpat_1' },
        webhookSecret: 'shpss_1',
      },
    });
    const byClient = storeConnection(
      {
        type: 'shopify',
        parameters: { shopDomain: '127.0.0.1:8443', clientId: 'cid' },
        secrets: { clientSecret: 'sec', webhookSecret: 'hook' },
      },
      reach,
    );
    expect(byClient).toEqual({
      connection: expect.objectContaining({
        baseUrl: 'http://127.0.0.1:8443',
        auth: { clientId: 'cid', clientSecret: 'sec' },
        webhookSecret: 'hook',
      }),
    });
  });

  it('says what Shopify credentials lack', () => {
    expect(
      storeConnection({ type: 'shopify', parameters: { clientId: 'cid' }, secrets: {} }, reach),
    ).toEqual({ problem: expect.stringContaining('parameters.shopDomain') });
  });

  it('reaches WooCommerce with its consumer key and our webhook secret', () => {
    expect(
      storeConnection(
        {
          type: 'woocommerce',
          parameters: {
            storeUrl: 'https://shop.example/wp',
            consumerKey: 'ck',
            trackingMetaKey: ' _tn ',
          },
          secrets: { consumerSecret: 'cs' },
        },
        reach,
      ),
    ).toEqual({
      connection: {
        platform: 'woocommerce',
        baseUrl: 'https://shop.example/wp',
        consumerKey: 'ck',
        consumerSecret: 'cs',
        webhookSecret: null,
        trackingMetaKey: '_tn',
      },
    });
    expect(
      storeConnection(
        { type: 'woocommerce', parameters: { storeUrl: 'https://s.example' }, secrets: {} },
        reach,
      ),
    ).toEqual({ problem: expect.stringContaining('consumerKey') });
  });

  it('reaches BigCommerce under the configured API root', () => {
    expect(
      storeConnection(
        {
          type: 'bigcommerce',
          parameters: { storeHash: 'abc' },
          secrets: { accessToken: 't', hookSecret: 'h' },
        },
        reach,
      ),
    ).toEqual({
      connection: {
        platform: 'bigcommerce',
        baseUrl: 'https://api.bigcommerce.com/stores/abc',
        accessToken: 't',
        hookSecret: 'h',
      },
    });
    expect(storeConnection({ type: 'bigcommerce', parameters: {}, secrets: {} }, reach)).toEqual({
      problem: expect.stringContaining('storeHash'),
    });
    expect(storeConnection({ type: 'smtp', parameters: {}, secrets: {} }, reach)).toEqual({
      problem: 'smtp credentials cannot reach a store.',
    });
  });
});

describe('storeSyncOptions', () => {
  it('defaults to a 30-day backfill, private notes and no status changes', () => {
    expect(storeSyncOptions({ type: 'woocommerce', parameters: {}, secrets: {} })).toEqual({
      backfillDays: 30,
      customerNotes: false,
      completeOnDelivery: false,
      statusIdOnDelivery: null,
    });
    expect(
      storeSyncOptions({
        type: 'bigcommerce',
        parameters: {
          backfillDays: 7,
          customerNotes: true,
          completeOnDelivery: true,
          statusIdOnDelivery: 10,
        },
        secrets: {},
      }),
    ).toEqual({
      backfillDays: 7,
      customerNotes: true,
      completeOnDelivery: true,
      statusIdOnDelivery: 10,
    });
  });
});

describe('pullIntervalSeconds and generatedSecretName', () => {
  it('pulls on the period, `immediately` every few minutes, `manual` never', () => {
    expect(pullIntervalSeconds('immediately', 15)).toBe(900);
    expect(pullIntervalSeconds('hourly', 15)).toBe(3600);
    expect(pullIntervalSeconds('daily', 15)).toBe(86_400);
    expect(pullIntervalSeconds('manual', 15)).toBeNull();
  });

  it('makes up the webhook secret of WooCommerce and BigCommerce, not Shopify’s', () => {
    expect(generatedSecretName('woocommerce')).toBe('webhookSecret');
    expect(generatedSecretName('bigcommerce')).toBe('hookSecret');
    expect(generatedSecretName('shopify')).toBeNull();
  });
});
