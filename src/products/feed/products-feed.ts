import type { CsvTable } from '../../imports/csv-table';
import { WEB_URL } from '../product.entity';
import { MAX_PRICE } from '../product-variant.entity';

/** What a feed column can fill. Each row is a variant; `productSku` groups rows into products. */
export type FeedField = 'sku' | 'productSku' | 'name' | 'price' | 'imageUrl' | 'originUrl';

/** Accepted column names (compared lower-case without separators: `image_url` = `imageUrl`). */
const COLUMN_ALIASES: Record<FeedField, string[]> = {
  sku: ['sku', 'variantsku'],
  productSku: ['productsku', 'parentsku', 'itemgroupid'],
  name: ['name', 'title', 'productname', 'producttitle'],
  price: ['price', 'regularprice', 'variantprice'],
  imageUrl: ['imageurl', 'image', 'imagelink', 'imagesrc'],
  originUrl: ['originurl', 'url', 'link', 'producturl'],
};

export interface FeedIssue {
  /** File line (header = 1); null for the feed as a whole. */
  line: number | null;
  column: string | null;
  message: string;
}

export interface FeedVariant {
  line: number;
  sku: string;
  /** Decimal string; null for an empty cell or no price column (kept, or 0 when new). */
  price: string | null;
  imageUrl: string | null;
}

export interface FeedProduct {
  sku: string;
  name: string | null;
  originUrl: string | null;
  imageUrl: string | null;
  variants: FeedVariant[];
}

export interface ProductsFeed {
  columns: Array<{ name: string; field: FeedField | null }>;
  rowCount: number;
  products: FeedProduct[];
  errors: FeedIssue[];
  warnings: FeedIssue[];
}

const normalize = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
const MAX_TEXT = 255;
const MAX_URL = 2048;

export function fieldOfColumn(name: string): FeedField | null {
  const key = normalize(name);
  for (const [field, aliases] of Object.entries(COLUMN_ALIASES) as Array<[FeedField, string[]]>) {
    if (aliases.includes(key)) return field;
  }
  return null;
}

/** `12`, `12.5`, `12,50` (decimal comma) -> `12`, `12.5`, `12.50`; null when not a price. */
export function parsePrice(cell: string): string | null {
  const text = cell.replace(',', '.');
  if (!/^\d{1,10}(\.\d{1,4})?$/.test(text)) return null;
  return Number(text) <= MAX_PRICE ? text : null;
}

/**
 * Checks a products feed: a `sku` column, well-formed cells, no SKU twice. Rows become
 * variants grouped into products by `productSku` (each SKU is its own product without it);
 * a product takes the first non-empty name, URL and image of its rows.
 */
export function readProductsFeed(table: CsvTable): ProductsFeed {
  const errors: FeedIssue[] = [];
  const warnings: FeedIssue[] = [];
  const columns = table.columns.map((name) => ({ name, field: fieldOfColumn(name) }));
  const index = new Map<FeedField, number>();
  columns.forEach((c, i) => {
    if (!c.field) {
      if (c.name !== '')
        warnings.push({ line: 1, column: c.name, message: 'Unknown column, ignored.' });
      return;
    }
    if (index.has(c.field)) {
      errors.push({
        line: 1,
        column: c.name,
        message: `This column fills "${c.field}" like "${columns[index.get(c.field)!].name}".`,
      });
      return;
    }
    index.set(c.field, i);
  });
  if (!index.has('sku')) {
    errors.push({ line: 1, column: null, message: 'A "sku" column is required.' });
  }
  const products = new Map<string, FeedProduct>();
  if (errors.length === 0) {
    const firstLineOfSku = new Map<string, number>();
    for (const row of table.rows) {
      const cell = (field: FeedField) =>
        index.has(field) ? row.values[index.get(field)!].trim() : '';
      const issue = (field: FeedField, message: string) =>
        errors.push({ line: row.line, column: columns[index.get(field)!].name, message });
      const rowErrors = errors.length;
      const sku = cell('sku');
      if (sku === '') issue('sku', 'This value should not be blank.');
      else if (sku.length > MAX_TEXT)
        issue('sku', `The SKU is longer than ${MAX_TEXT} characters.`);
      else if (firstLineOfSku.has(sku))
        issue('sku', `The SKU "${sku}" appears twice (first on line ${firstLineOfSku.get(sku)}).`);
      else firstLineOfSku.set(sku, row.line);
      const productSku = cell('productSku') || sku;
      if (productSku.length > MAX_TEXT)
        issue('productSku', `The product SKU is longer than ${MAX_TEXT} characters.`);
      const name = cell('name');
      if (name.length > MAX_TEXT) issue('name', `The name is longer than ${MAX_TEXT} characters.`);
      const priceCell = cell('price');
      const price = priceCell === '' ? null : parsePrice(priceCell);
      if (priceCell !== '' && price === null)
        issue('price', `"${priceCell}" is not a price (a number of at most 4 decimals, >= 0).`);
      const url = (field: 'imageUrl' | 'originUrl') => {
        const value = cell(field);
        if (value === '') return null;
        if (value.length > MAX_URL || !WEB_URL.test(value)) {
          issue(field, `"${value.slice(0, 80)}" is not a valid http(s) URL.`);
          return null;
        }
        return value;
      };
      const imageUrl = url('imageUrl');
      const originUrl = url('originUrl');
      if (errors.length > rowErrors) continue;
      let product = products.get(productSku);
      if (!product) {
        product = { sku: productSku, name: null, originUrl: null, imageUrl: null, variants: [] };
        products.set(productSku, product);
      }
      product.name ??= name || null;
      product.originUrl ??= originUrl;
      product.imageUrl ??= imageUrl;
      product.variants.push({ line: row.line, sku, price, imageUrl });
    }
  }
  return {
    columns,
    rowCount: table.rows.length,
    products: [...products.values()],
    errors,
    warnings,
  };
}

/** The first rows as the product cards a tracking page shows (the reference's ProductItem). */
export function previewItems(feed: ProductsFeed, limit = 20) {
  return feed.products
    .flatMap((p) =>
      p.variants.map((v) => ({
        title: p.name ?? p.sku,
        buttonUrl: p.originUrl,
        imageUrl: v.imageUrl ?? p.imageUrl,
        regularPrice: v.price,
        discountedPrice: null,
      })),
    )
    .slice(0, limit);
}
