import { crc32, deflateSync } from 'node:zlib';

/**
 * What crawlers may read (README "API conventions"): nothing behind a capability link (a
 * tracking page link's hash, `/public/` receivers and images, media files) nor the sign-in and
 * account pages; the tracking sites' homes and the API documentation stay open.
 */
export const ROBOTS_TXT = [
  'User-agent: *',
  'Disallow: /t/',
  'Disallow: /public/',
  'Disallow: /media/',
  'Disallow: /oauth/',
  'Disallow: /security/',
  'Disallow: /integration/',
  'Disallow: /billing/',
  '',
].join('\n');

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/** A square PNG: a filled circle of `rgb` on transparency (the default icon's mark). */
export function circlePng(size: number, rgb: readonly [number, number, number]): Buffer {
  const rows: Buffer[] = [];
  const r = size / 2;
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4); // filter byte 0, then RGBA
    for (let x = 0; x < size; x++) {
      const d = Math.hypot(x + 0.5 - r, y + 0.5 - r);
      const alpha = Math.round(255 * Math.min(1, Math.max(0, r - d)));
      row.set([rgb[0], rgb[1], rgb[2], alpha], 1 + x * 4);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, no filter set, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An ICO file holding one PNG image (every browser reads PNG inside ICO). */
export function icoOf(png: Buffer, size: number): Buffer {
  const head = Buffer.alloc(22);
  head.writeUInt16LE(0, 0); // reserved
  head.writeUInt16LE(1, 2); // icon
  head.writeUInt16LE(1, 4); // one image
  head.writeUInt8(size >= 256 ? 0 : size, 6);
  head.writeUInt8(size >= 256 ? 0 : size, 7);
  head.writeUInt8(0, 8); // no palette
  head.writeUInt8(0, 9);
  head.writeUInt16LE(1, 10); // planes
  head.writeUInt16LE(32, 12); // bits per pixel
  head.writeUInt32LE(png.length, 14);
  head.writeUInt32LE(22, 18); // offset of the image
  return Buffer.concat([head, png]);
}

/** The default favicon: the pages' accent colour as a 32-pixel dot. */
export const DEFAULT_FAVICON = icoOf(circlePng(32, [0x1f, 0x6f, 0xeb]), 32);
