import { importShares } from './import-shares';

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('importShares', () => {
  it('spreads a page over the imports that run at once', () => {
    expect(importShares(range(10), 4, 10)).toEqual([
      [0, 1, 2],
      [3, 4, 5],
      [6, 7],
      [8, 9],
    ]);
  });

  it('makes more shares when one would hold too many orders', () => {
    const shares = importShares(range(95), 4, 10);
    expect(shares).toHaveLength(10);
    expect(shares.flat()).toEqual(range(95));
    expect(Math.max(...shares.map((s) => s.length))).toBe(10);
  });

  it('gives each order a share of its own on a short page', () => {
    expect(importShares(range(3), 4, 10)).toEqual([[0], [1], [2]]);
    expect(importShares([], 4, 10)).toEqual([]);
  });
});
