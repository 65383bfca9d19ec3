import { bigcommerceBaseUrl, shopifyBaseUrl, urlUnder } from './store-base-url';

describe('store base URLs', () => {
  it('calls Shopify shops over https unless the operator allow-listed the host', () => {
    expect(shopifyBaseUrl('Acme.myshopify.com', [])).toBe('https://acme.myshopify.com');
    expect(shopifyBaseUrl('127.0.0.1:8443', ['127.0.0.1'])).toBe('http://127.0.0.1:8443');
    expect(shopifyBaseUrl('acme.myshopify.com', ['127.0.0.1'])).toBe('https://acme.myshopify.com');
  });

  it('puts the store hash under the BigCommerce API root', () => {
    expect(bigcommerceBaseUrl('abc123')).toBe('https://api.bigcommerce.com/stores/abc123');
    expect(bigcommerceBaseUrl('abc123', 'http://127.0.0.1:9000/')).toBe(
      'http://127.0.0.1:9000/stores/abc123',
    );
  });

  it('keeps a base path and sets the query', () => {
    expect(
      urlUnder('https://shop.example/wp/', '/wp-json/wc/v3/orders', {
        page: 2,
        modified_after: 'x',
      }).href,
    ).toBe('https://shop.example/wp/wp-json/wc/v3/orders?page=2&modified_after=x');
  });
});
