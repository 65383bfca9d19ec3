/** Image types served inline; everything else is served as a download. */
export const INLINE_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/**
 * The media type a file's first bytes prove, for the types we treat specially (inline
 * images, PDF); null when the bytes prove nothing. Declared types are never trusted for
 * inline display.
 */
export function sniffMediaType(data: Buffer): string | null {
  const starts = (...bytes: number[]) => bytes.every((b, i) => data[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (
    data
      .subarray(0, 6)
      .toString('latin1')
      .match(/^GIF8[79]a$/)
  )
    return 'image/gif';
  if (
    data.subarray(0, 4).toString('latin1') === 'RIFF' &&
    data.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'image/webp';
  if (data.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  return null;
}

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/** The stored type: what the bytes prove, else the declared type when well-formed. */
export function storedMediaType(data: Buffer, declared: string | undefined): string {
  const sniffed = sniffMediaType(data);
  if (sniffed) return sniffed;
  const type = (declared ?? '').split(';')[0].trim().toLowerCase();
  // A declared image type the bytes do not prove must not be displayed as one.
  if (!MEDIA_TYPE.test(type) || type.startsWith('image/')) return 'application/octet-stream';
  return type;
}

export function isImage(mimeType: string): boolean {
  return (INLINE_IMAGE_TYPES as readonly string[]).includes(mimeType);
}
