import { isImage, sniffMediaType, storedMediaType } from './sniff-media-type';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);

describe('sniffMediaType', () => {
  it('recognises images and PDF by their bytes', () => {
    expect(sniffMediaType(PNG)).toBe('image/png');
    expect(sniffMediaType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffMediaType(Buffer.from('GIF89a....'))).toBe('image/gif');
    expect(sniffMediaType(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
    expect(sniffMediaType(Buffer.from('%PDF-1.7'))).toBe('application/pdf');
    expect(sniffMediaType(Buffer.from('<svg/>'))).toBeNull();
  });
});

describe('storedMediaType', () => {
  it('prefers the sniffed type', () => {
    expect(storedMediaType(PNG, 'text/plain')).toBe('image/png');
  });
  it('keeps a well-formed declared type the bytes cannot prove, except images', () => {
    expect(storedMediaType(Buffer.from('a,b'), 'text/csv; charset=utf-8')).toBe('text/csv');
    expect(storedMediaType(Buffer.from('<svg/>'), 'image/svg+xml')).toBe(
      'application/octet-stream',
    );
    expect(storedMediaType(Buffer.from('x'), 'not a type')).toBe('application/octet-stream');
    expect(storedMediaType(Buffer.from('x'), undefined)).toBe('application/octet-stream');
  });
  it('tells inline images apart', () => {
    expect(isImage('image/png')).toBe(true);
    expect(isImage('image/svg+xml')).toBe(false);
  });
});
