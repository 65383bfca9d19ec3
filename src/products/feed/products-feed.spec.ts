import { readCsvTable } from '../../imports/csv-table';
import { fieldOfColumn, parsePrice, previewItems, readProductsFeed } from './products-feed';

const feedOf = (text: string) => readProductsFeed(readCsvTable(text, 1000));

describe('products feed', () => {
  it('maps column names and their usual aliases', () => {
    expect(fieldOfColumn('SKU')).toBe('sku');
    expect(fieldOfColumn('item_group_id')).toBe('productSku');
    expect(fieldOfColumn('Product Name')).toBe('name');
    expect(fieldOfColumn('image_link')).toBe('imageUrl');
    expect(fieldOfColumn('Link')).toBe('originUrl');
    expect(fieldOfColumn('colour')).toBeNull();
  });

  it('reads prices with a decimal point or comma, at most 4 decimals', () => {
    expect(parsePrice('12')).toBe('12');
    expect(parsePrice('12,50')).toBe('12.50');
    expect(parsePrice('0.1234')).toBe('0.1234');
    expect(parsePrice('1.23456')).toBeNull();
    expect(parsePrice('-1')).toBeNull();
    expect(parsePrice('$5')).toBeNull();
    expect(parsePrice('99999999999')).toBeNull();
  });

  it('groups variants into products by product SKU; first non-empty facts win', () => {
    const feed = feedOf(
      [
        'product_sku,sku,name,price,image_url,url,colour',
        'JACKET,JACKET-S,Jacket,10,,https://shop.example/jacket,red',
        'JACKET,JACKET-M,,12.5,https://shop.example/m.jpg,,red',
        ',MUG,Mug,,,,',
      ].join('\n'),
    );
    expect(feed.errors).toEqual([]);
    expect(feed.warnings).toEqual([
      { line: 1, column: 'colour', message: 'Unknown column, ignored.' },
    ]);
    expect(feed.rowCount).toBe(3);
    expect(feed.products).toEqual([
      {
        sku: 'JACKET',
        name: 'Jacket',
        originUrl: 'https://shop.example/jacket',
        imageUrl: 'https://shop.example/m.jpg',
        variants: [
          { line: 2, sku: 'JACKET-S', price: '10', imageUrl: null },
          { line: 3, sku: 'JACKET-M', price: '12.5', imageUrl: 'https://shop.example/m.jpg' },
        ],
      },
      {
        sku: 'MUG',
        name: 'Mug',
        originUrl: null,
        imageUrl: null,
        variants: [{ line: 4, sku: 'MUG', price: null, imageUrl: null }],
      },
    ]);
    expect(previewItems(feed, 2)).toEqual([
      {
        title: 'Jacket',
        buttonUrl: 'https://shop.example/jacket',
        imageUrl: 'https://shop.example/m.jpg',
        regularPrice: '10',
        discountedPrice: null,
      },
      {
        title: 'Jacket',
        buttonUrl: 'https://shop.example/jacket',
        imageUrl: 'https://shop.example/m.jpg',
        regularPrice: '12.5',
        discountedPrice: null,
      },
    ]);
  });

  it('reports every bad cell with its line and column', () => {
    const feed = feedOf(
      [
        'sku,price,image',
        'A,1,https://x.example/a.png',
        ',2,',
        'A,3,',
        'B,abc,javascript:alert(1)',
      ].join('\n'),
    );
    expect(feed.errors).toEqual([
      { line: 3, column: 'sku', message: 'This value should not be blank.' },
      { line: 4, column: 'sku', message: 'The SKU "A" appears twice (first on line 2).' },
      {
        line: 5,
        column: 'price',
        message: '"abc" is not a price (a number of at most 4 decimals, >= 0).',
      },
      { line: 5, column: 'image', message: '"javascript:alert(1)" is not a valid http(s) URL.' },
    ]);
  });

  it('needs a sku column, and one column per field', () => {
    expect(feedOf('name,price\nX,1').errors).toEqual([
      { line: 1, column: null, message: 'A "sku" column is required.' },
    ]);
    expect(feedOf('sku,variant_sku\nX,Y').errors).toEqual([
      { line: 1, column: 'variant_sku', message: 'This column fills "sku" like "sku".' },
    ]);
  });
});
