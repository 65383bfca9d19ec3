import { inflateSync } from 'node:zlib';
import { circlePng, DEFAULT_FAVICON, icoOf, ROBOTS_TXT } from './site-files';

describe('site files', () => {
  it('keeps crawlers off capability links and account pages', () => {
    for (const path of ['/t/', '/public/', '/media/', '/oauth/', '/security/'])
      expect(ROBOTS_TXT).toContain(`Disallow: ${path}\n`);
    expect(ROBOTS_TXT).not.toMatch(/Disallow: \/\s*$/m);
  });

  it('draws a PNG whose pixels decode to the size asked', () => {
    const png = circlePng(8, [10, 20, 30]);
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(8);
    const idatLength = png.readUInt32BE(33);
    expect(png.subarray(37, 41).toString('ascii')).toBe('IDAT');
    const pixels = inflateSync(png.subarray(41, 41 + idatLength));
    expect(pixels.length).toBe(8 * (1 + 8 * 4));
    // The centre is opaque in the given colour, the corner transparent.
    const centre = 4 * (1 + 32) + 1 + 4 * 4;
    expect([...pixels.subarray(centre, centre + 4)]).toEqual([10, 20, 30, 255]);
    expect(pixels[1 + 3]).toBe(0);
  });

  it('wraps the PNG in an ICO directory pointing at it', () => {
    const png = circlePng(16, [0, 0, 0]);
    const ico = icoOf(png, 16);
    expect(ico.readUInt16LE(2)).toBe(1);
    expect(ico.readUInt16LE(4)).toBe(1);
    expect(ico.readUInt32LE(14)).toBe(png.length);
    expect(ico.subarray(ico.readUInt32LE(18)).equals(png)).toBe(true);
    expect(DEFAULT_FAVICON.readUInt8(6)).toBe(32);
  });
});
