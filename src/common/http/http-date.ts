/**
 * An HTTP date (RFC 9110 5.6.7, `Sun, 06 Nov 1994 08:49:37 GMT`) of an epoch-milliseconds
 * instant. The last second formatted is kept: the answers of one second (Last-Modified of
 * one item read again and again, of a batch written together) share it, and toUTCString
 * costs about a microsecond each time.
 */
let lastSecond = Number.NaN;
let lastText = '';

export function httpDate(epochMs: number): string {
  const second = Math.floor(epochMs / 1000);
  if (second !== lastSecond) {
    lastText = new Date(second * 1000).toUTCString();
    lastSecond = second;
  }
  return lastText;
}
