import fc from 'fast-check';
import {
  luhnAt,
  luhnCheckDigit,
  mod10At,
  mod10CheckDigit,
  mod3736CheckChar,
  mod7CheckDigit,
  s10CheckDigit,
  weightedModCheckDigit,
} from './checksums';

const FEDEX = { weightsFromRight: [1, 3, 7], modulo1: 11, modulo2: 10 };

describe('mod10 (weighted, alternating multipliers)', () => {
  it('UPS 1Z: letters count as (code - 3) mod 10, odd positions doubled', () => {
    // 5 R(9) 8 9 3 9 0 3 5 7 5 6 7 1 2
    // even positions x1: 5+8+3+0+5+5+7+2 = 35; odd positions x2: 2*(9+9+9+3+7+6+1) = 88
    // 123 -> 10 - 3 = 7
    expect(mod10CheckDigit('5R8939035756712', { evensMultiplier: 1, oddsMultiplier: 2 })).toBe('7');
  });

  it('USPS 20: 3 on even positions, 1 on odd ones', () => {
    // 0307179000052348374: evens 0+0+1+9+0+0+2+4+3+4 = 23 -> 69; odds 3+7+7+0+0+5+3+8+7 = 40
    // 109 -> 1
    expect(mod10CheckDigit('0307179000052348374', { evensMultiplier: 3, oddsMultiplier: 1 })).toBe(
      '1',
    );
  });

  it('an implicit prefix shifts positions and adds to the sum (USPS "91")', () => {
    const options = { evensMultiplier: 3, oddsMultiplier: 1, implicitPrefix: '91' };
    expect(mod10CheckDigit('7196901075600307738', options)).toBe('5');
    // Same as checking the prefixed serial without the option.
    expect(
      mod10CheckDigit('917196901075600307738', { evensMultiplier: 3, oddsMultiplier: 1 }),
    ).toBe('5');
  });

  it('a sum that is already a multiple of ten gives 0', () => {
    expect(mod10CheckDigit('0000', { evensMultiplier: 3, oddsMultiplier: 1 })).toBe('0');
    expect(mod10CheckDigit('55', { evensMultiplier: 1, oddsMultiplier: 1 })).toBe('0');
  });

  it('rejects characters it cannot value', () => {
    expect(mod10At('12-4', 0, 4, 3, 1)).toBe(-1);
    expect(mod10CheckDigit('1a', { evensMultiplier: 1, oddsMultiplier: 1 })).toBe('');
  });

  it('reads a range in place', () => {
    expect(mod10At('xx0307179000052348374yy', 2, 21, 3, 1)).toBe(1);
  });
});

describe('mod7', () => {
  it('is the serial as an integer modulo 7 (DHL Express)', () => {
    // 331881002 = 7 * 47411571 + 5
    expect(mod7CheckDigit('331881002')).toBe('5');
    expect(mod7CheckDigit('7389105114')).toBe('6');
  });

  it('works on serials beyond 2^53', () => {
    const serial = '98765432109876543210';
    expect(mod7CheckDigit(serial)).toBe(String(BigInt(serial) % 7n));
  });
});

describe('S10', () => {
  it('weights 8,6,4,2,3,5,9,7 and 11 - sum mod 11', () => {
    // 1*8 + 2*6 + 3*4 + 4*2 + 5*3 + 6*5 + 7*9 + 8*7 = 204; 204 mod 11 = 6; 11 - 6 = 5
    expect(s10CheckDigit('12345678')).toBe('5');
  });

  it('maps 10 to 0 and 11 to 5', () => {
    // 7*8 = 56 = 5*11 + 1 -> 11 - 1 = 10 -> 0
    expect(s10CheckDigit('70000000')).toBe('0');
    // 0 -> 11 - 0 = 11 -> 5
    expect(s10CheckDigit('00000000')).toBe('5');
  });

  it('needs exactly eight digits', () => {
    expect(s10CheckDigit('1234567')).toBe('');
    expect(s10CheckDigit('1234567A')).toBe('');
  });
});

describe('Luhn', () => {
  it('doubles every other digit from the right', () => {
    expect(luhnCheckDigit('7992739871')).toBe('3');
    expect(luhnCheckDigit('0720956276')).toBe('3');
    expect(luhnCheckDigit('32059546393')).toBe('8');
  });

  it('catches every single-digit error', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 2, maxLength: 20 }),
        fc.nat(),
        fc.integer({ min: 1, max: 9 }),
        (digits, at, delta) => {
          const serial = digits.join('');
          const i = at % serial.length;
          const changed =
            serial.slice(0, i) + String((digits[i] + delta) % 10) + serial.slice(i + 1);
          expect(luhnAt(changed, 0, changed.length)).not.toBe(luhnAt(serial, 0, serial.length));
        },
      ),
    );
  });
});

describe('ISO 7064 MOD 37,36', () => {
  it('gives the DPD check characters', () => {
    expect(mod3736CheckChar('008182709980000020033350276')).toBe('C');
    expect(mod3736CheckChar('008182709980000020045327276')).toBe('N');
  });

  it('catches every single-character substitution', () => {
    const alnum = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 35 }), { minLength: 2, maxLength: 30 }),
        fc.nat(),
        fc.integer({ min: 1, max: 35 }),
        (values, at, delta) => {
          const serial = values.map((v) => alnum[v]).join('');
          const i = at % values.length;
          const changed =
            serial.slice(0, i) + alnum[(values[i] + delta) % 36] + serial.slice(i + 1);
          expect(mod3736CheckChar(changed)).not.toBe(mod3736CheckChar(serial));
        },
      ),
    );
  });
});

describe('weighted sum with two moduli (FedEx Express)', () => {
  it('weights 1,3,7 from the right, mod 11 then mod 10', () => {
    // from the right: 5*1 + 8*3 + 8*7 + 8*1 + 7*3 + 8*7 + 7*1 + 5*3 + 6*7 + 8*1 + 9*3 = 269
    // 269 mod 11 = 5
    expect(weightedModCheckDigit('98657878885', FEDEX)).toBe('5');
  });

  it('uses the same rule on 13-digit serials (FedEx 34)', () => {
    expect(weightedModCheckDigit('0077901797269', FEDEX)).toBe('7');
  });

  it('a remainder of 10 becomes 0', () => {
    // 10 = 1*1 + 3*3 -> "31"
    expect(weightedModCheckDigit('31', FEDEX)).toBe('0');
  });
});
