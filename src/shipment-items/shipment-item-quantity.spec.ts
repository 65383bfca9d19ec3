import fc from 'fast-check';
import { availableQuantity } from './shipment-item-quantity';

describe('availableQuantity', () => {
  it('is what the order item still lacks', () => {
    expect(availableQuantity(5, 0)).toBe(5);
    expect(availableQuantity(5, 3)).toBe(2);
    expect(availableQuantity(5, 5)).toBe(0);
  });

  it('never goes below zero, and never lets the total exceed the ordered quantity', () => {
    fc.assert(
      fc.property(fc.nat(1000), fc.nat(1000), (ordered, others) => {
        const available = availableQuantity(ordered, others);
        expect(available).toBeGreaterThanOrEqual(0);
        if (others <= ordered) expect(others + available).toBe(ordered);
      }),
    );
  });
});
