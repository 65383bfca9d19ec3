import fc from 'fast-check';
import { S10_COUNTRY_CARRIERS, TEST_CARRIER_CODE } from './carrier-catalogue';
import {
  COMPILED_FORMATS,
  CompiledFormat,
  detectCarriers,
  matchFormats,
  normaliseTrackingNumber,
} from './carrier-detector';
import { resolveCarrier } from './carrier-resolver';
import {
  checkAlphabet,
  generateTrackingNumber,
  replaceAt,
  seededRandom,
} from './tracking-number-generator';

const formatIds = (n: string): string[] => matchFormats(n).map((c) => c.formatId);
const carrierCodes = (n: string): string[] => detectCarriers(n).map((c) => c.carrierCode);
const top = (n: string): string | undefined => detectCarriers(n)[0]?.carrierCode;
const winner = (n: string): string | undefined => {
  const r = resolveCarrier(n);
  return 'carrier' in r ? r.carrier.code : undefined;
};

/** Expected carrier of a generated number (S10 numbers go to the post of their suffix). */
function expectedCarrier(format: CompiledFormat, n: string): string {
  if (format.id !== 's10') return format.carrierCode;
  return S10_COUNTRY_CARRIERS.get(n.slice(format.groups.CountryCode.start))!;
}

/**
 * Formats with a distinctive shape: a generated number of these always resolves to their
 * carrier outright. The others (bare digit runs) can collide with another carrier's
 * checksum by chance and then are only required to be among the candidates.
 */
const ALWAYS_WIN = new Set([
  'ups-1z',
  'fedex-express-34',
  'fedex-ground-96-22',
  'fedex-ground-gsn-34',
  'usps-impb-34-420',
  'usps-impb-30-420',
  'usps-420-zip4-34',
  'amazon-tba',
  'ontrac-c',
  'ontrac-d',
  'lasership-lx',
  'lasership-1ls7-15',
  'lasership-1ls7-18',
  'yodel-jd',
  'yodel-jjd',
  'yunexpress-yt',
  'landmark-ltn',
  'speedee-sp',
  'gofo-gfus',
  'old-dominion-777',
  'old-dominion-072',
  'old-dominion-guaranteed',
  'canpar-22',
  's10',
  ...COMPILED_FORMATS.filter((f) => f.id.startsWith('dhl-ecommerce-gm')).map((f) => f.id),
]);

/** Algorithms that catch every change of one serial digit (the others catch most). */
function detectsEverySingleDigitError(format: CompiledFormat): boolean {
  const spec = format.checksum;
  if (!spec) return false;
  if (spec.algorithm === 'luhn' || spec.algorithm === 'mod37-36') return true;
  return (
    spec.algorithm === 'mod10' &&
    spec.evensMultiplier % 2 === 1 &&
    spec.evensMultiplier % 5 !== 0 &&
    spec.oddsMultiplier % 2 === 1 &&
    spec.oddsMultiplier % 5 !== 0
  );
}

const seed = fc.integer({ min: 0, max: 0x7fffffff });

describe('tracking number formats', () => {
  it('compile to fixed-length anchored regexes with the groups their checksum needs', () => {
    expect(COMPILED_FORMATS.length).toBeGreaterThan(40);
    expect(new Set(COMPILED_FORMATS.map((f) => f.id)).size).toBe(COMPILED_FORMATS.length);
    for (const f of COMPILED_FORMATS) {
      expect(f.regex.source.startsWith('^')).toBe(true);
      expect(f.regex.source.endsWith('$')).toBe(true);
      if (f.checksum) {
        expect(f.groups.SerialNumber).toBeDefined();
        expect(f.groups.CheckDigit.end - f.groups.CheckDigit.start).toBe(1);
      }
    }
  });

  describe.each(COMPILED_FORMATS.map((f) => [f.id, f] as const))('%s', (_id, format) => {
    it('detects generated numbers as this format and carrier', () => {
      fc.assert(
        fc.property(seed, (s) => {
          const n = generateTrackingNumber(format, seededRandom(s));
          expect(n).toHaveLength(format.length);
          expect(formatIds(n)).toContain(format.id);
          const carrier = expectedCarrier(format, n);
          expect(carrierCodes(n)).toContain(carrier);
          const others = matchFormats(n).filter((c) => c.carrierCode !== carrier);
          if (ALWAYS_WIN.has(format.id) || others.length === 0) {
            expect(top(n)).toBe(carrier);
            expect(winner(n)).toBe(carrier);
          }
        }),
        { numRuns: 200 },
      );
    });

    it('still detects them with spaces, dashes and lowercase', () => {
      fc.assert(
        fc.property(seed, fc.array(fc.constantFrom(' ', '-', '  ', '\t')), (s, seps) => {
          const n = generateTrackingNumber(format, seededRandom(s));
          let messy = ` ${n.toLowerCase()} `;
          seps.forEach((sep, i) => {
            const at = 1 + (i % n.length);
            messy = messy.slice(0, at) + sep + messy.slice(at);
          });
          expect(normaliseTrackingNumber(messy)).toBe(n);
          expect(formatIds(messy)).toContain(format.id);
        }),
        { numRuns: 50 },
      );
    });

    if (format.checksum) {
      const spec = format.checksum;
      const checkAt = format.groups.CheckDigit.start;

      it('rejects the number when the check digit is changed', () => {
        fc.assert(
          fc.property(seed, fc.integer({ min: 1, max: 35 }), (s, shift) => {
            const n = generateTrackingNumber(format, seededRandom(s));
            const alphabet = checkAlphabet(spec);
            const current = alphabet.indexOf(n[checkAt]);
            const wrong =
              alphabet[(current + (shift % (alphabet.length - 1)) + 1) % alphabet.length];
            expect(wrong).not.toBe(n[checkAt]);
            expect(formatIds(replaceAt(n, checkAt, wrong))).not.toContain(format.id);
          }),
          { numRuns: 200 },
        );
      });

      if (detectsEverySingleDigitError(format)) {
        it('rejects the number when one serial digit is changed', () => {
          const { start, end } = format.groups.SerialNumber;
          fc.assert(
            fc.property(seed, fc.nat(), fc.integer({ min: 1, max: 9 }), (s, at, delta) => {
              const n = generateTrackingNumber(format, seededRandom(s));
              const i = start + (at % (end - start));
              if (!/[0-9]/.test(n[i])) return;
              const changed = replaceAt(n, i, String((Number(n[i]) + delta) % 10));
              expect(formatIds(changed)).not.toContain(format.id);
            }),
            { numRuns: 200 },
          );
        });
      }
    }
  });
});

describe('published test numbers', () => {
  // [number, carrier expected among the candidates, expected outright winner?]
  const valid: [string, string, boolean][] = [
    ['1Z5R89390357567127', 'ups', true],
    ['1Z879E930346834440', 'ups', true],
    ['1Z410E7W0392751591', 'ups', true],
    ['1Z8V92A70367203024', 'ups', true],
    [' 1 Z 8 V 9 2 A 7 0 3 6 7 2 0 3 0 2 4 ', 'ups', true],
    ['1ZXX3150YW44070023', 'ups', true],
    ['986578788855', 'fedex', true],
    ['477179081230', 'fedex', true],
    ['799531274483', 'fedex', true],
    [' 7 9 0 5 3 5 3 1 2 3 1 7 ', 'fedex', true],
    ['974367662710', 'fedex', true],
    ['1001921334250001000300779017972697', 'fedex', true],
    ['1001921380360001000300639585804382', 'fedex', true],
    ['1002297871540001000300790695517286', 'fedex', true],
    ['61299998820821171811', 'fedex', true],
    ['9261292700768711948021', 'fedex', false],
    ['0414 4176 0228 964', 'fedex', true],
    ['5682 8361 0012 000', 'fedex', true],
    ['5682 8361 0012 734', 'fedex', true],
    ['00 0123 4500 0000 0027', 'fedex', true],
    ['9611020987654312345672', 'fedex', true],
    ['9622001900000000000000776632517510', 'fedex', true],
    ['9622001560001234567100794808390594', 'fedex', true],
    ['9632001560123456789900794808390594', 'fedex', true],
    ['0307 1790 0005 2348 3741', 'usps', true],
    ['7112 3456 7891 2345 6787', 'usps', true],
    ['4201002334249200190132607600833457', 'usps', true],
    ['4201028200009261290113185417468510', 'usps', true],
    ['420 22153 9101026837331000039521', 'usps', true],
    ['7196 9010 7560 0307 7385', 'usps', true],
    ['9505 5110 6960 5048 6006 24', 'usps', true],
    ['9101 1234 5678 9000 0000 13', 'usps', true],
    ['92748931507708513018050063', 'usps', true],
    ['9400 1112 0108 0805 4830 16', 'usps', true],
    ['9361 2898 7870 0317 6337 95', 'usps', true],
    ['9405803699300124287899', 'usps', true],
    ['RB123456785US', 'usps', true],
    ['3318810025', 'dhl', true],
    ['8487135506', 'dhl', true],
    ['3318810036', 'dhl', true],
    ['73891051146', 'dhl', true],
    ['TBA000000000000', 'amazon', true],
    ['TBA502887274000', 'amazon', true],
    ['C11031500001879', 'ontrac', true],
    ['C10999911320231', 'ontrac', true],
    ['LX17635036', 'lasership', true],
    ['LX 176 35035', 'lasership', true],
    ['1LS717793482164', 'lasership', true],
    ['1LS724505321754', 'lasership', true],
    ['1LS7119013618127-1', 'lasership', true],
    ['0073938000549297', 'canada-post', true],
    ['7035114477138472', 'canada-post', true],
    ['4002847016405018', 'canada-post', true],
    ['320595463938', 'purolator', true],
    ['320606146993', 'purolator', true],
    ['287809468872', 'purolator', false],
    ['331426749957', 'purolator', true],
    ['KYV009956937', 'purolator', true],
    ['TLR000083964', 'purolator', true],
    ['D576002440000001718010', 'canpar', true],
    ['L576002440000000001004', 'canpar', true],
    ['00 81827 0998 0000 0200 33 350 276 C', 'dpd', true],
    ['0081 827 0998 0000 0200 45 327 276 N', 'dpd', true],
    ['JJD0002257639032011', 'yodel', true],
    ['JD0002242617644732', 'yodel', true],
    ['YT2229521272164446', 'yunexpress', true],
    [' Y T 2 2 2 9 5 2 1 2 7 2 1 6 4 4 4 7 ', 'yunexpress', true],
    ['LTN74207623N1', 'landmark', true],
    ['07209562763', 'old-dominion', true],
    ['77767553207', 'old-dominion', true],
    ['80003280379', 'old-dominion', true],
    ['80993847369', 'old-dominion', true],
    ['SP029692510000920746', 'speedee', true],
    ['GFUS01011884214464', 'gofo', true],
    ['01 030E 0928 06 011E 001E', 'deutsche-post', true],
    ['RB123456785GB', 'royal-mail', true],
    ['RB123456785CV', 'correios-cabo-verde', true],
    [' R B 1 2 3 4 5 6 7 8 5 C F ', 'poste-centrafricaine', true],
  ];

  it.each(valid)('%s is %s', (n, carrier, wins) => {
    expect(carrierCodes(n)).toContain(carrier);
    if (wins) expect(winner(n)).toBe(carrier);
  });

  // [number, carrier it must not be attributed to]
  const invalid: [string, string][] = [
    ['2Z5R89390357567127', 'ups'],
    ['1A5R89390357567127', 'ups'],
    ['1Z1111111111111111', 'ups'],
    ['996578788855', 'fedex'],
    ['1001901781990001000300617767839438', 'fedex'],
    ['9261292700768711948020', 'fedex'],
    ['5682 8361 0012 732', 'fedex'],
    ['000000000000000001', 'fedex'],
    ['9600000000000000000001', 'fedex'],
    ['9622001560001234567100794808390595', 'fedex'],
    ['0307 1790 0005 2348 3742', 'usps'],
    ['4201028200009261290113185417468511', 'usps'],
    ['9200000000000000000000', 'usps'],
    ['420000000000000000000000000000', 'usps'],
    ['420000009200000000000000000000', 'usps'],
    ['3318810010', 'dhl'],
    ['3318810034', 'dhl'],
    ['73891051149', 'dhl'],
    ['TBA50288727400A', 'amazon'],
    ['TBB000000000000', 'amazon'],
    ['C10000000000000', 'ontrac'],
    ['C11031500001889', 'ontrac'],
    ['LX1763503N', 'lasership'],
    ['LA17635036', 'lasership'],
    ['1LX734505321754', 'lasership'],
    ['1LS7119013618127-2', 'lasership'],
    ['0073938000549292', 'canada-post'],
    ['5002847016405018', 'canada-post'],
    ['320595463939', 'purolator'],
    ['KY009956937', 'purolator'],
    ['1576002440000002510003', 'canpar'],
    ['M576002440000002510003', 'canpar'],
    ['008182709980000020033350276A', 'dpd'],
    ['0081 827 0998 0000 0200 45 000 000 N', 'dpd'],
    ['JD000225440506099', 'yodel'],
    ['JC0002254405060992', 'yodel'],
    ['YT123456789012345', 'yunexpress'],
    ['LSN74209518N1', 'landmark'],
    ['07209562773', 'old-dominion'],
    ['80003280389', 'old-dominion'],
    ['SX029692510000920746', 'speedee'],
    ['GFUS0101188421446', 'gofo'],
    ['RB123456786US', 'usps'],
  ];

  it.each(invalid)('%s is not %s', (n, carrier) => {
    expect(carrierCodes(n)).not.toContain(carrier);
  });

  it('does not map S10 numbers with an unknown country suffix', () => {
    expect(detectCarriers('RB123456785XX')).toEqual([]);
  });
});

describe('S10 country mapping', () => {
  const s10 = COMPILED_FORMATS.find((f) => f.id === 's10')!;

  it.each([...S10_COUNTRY_CARRIERS])('suffix %s goes to %s', (country, carrier) => {
    const n = generateTrackingNumber(s10, seededRandom(country.charCodeAt(0) * 31), {
      CountryCode: country,
    });
    expect(n.endsWith(country)).toBe(true);
    expect(winner(n)).toBe(carrier);
    expect(detectCarriers(n)[0]).toMatchObject({
      carrierCode: carrier,
      formatName: 'S10 international',
      checksumValidated: true,
    });
  });

  it('ignores service indicators the standard does not assign', () => {
    // Same digits and check digit as RB123456785GB.
    expect(carrierCodes('RB123456785GB')).toContain('royal-mail');
    expect(carrierCodes('KB123456785GB')).not.toContain('royal-mail');
    expect(carrierCodes('QZ123456785GB')).not.toContain('royal-mail');
  });
});

describe('test carrier', () => {
  const middle = fc.string({
    unit: fc.constantFrom(...'ABCXYZabcxyz0123456789 -#/.'.split('')),
    maxLength: 30,
  });

  it('wins outright for TM<3 digits><anything>TM, in any case', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999 }), middle, fc.boolean(), (code, rest, lower) => {
        const raw = `TM${String(code).padStart(3, '0')}${rest}TM`;
        const n = lower ? raw.toLowerCase() : raw;
        const [first, second] = detectCarriers(n);
        expect(first.carrierCode).toBe(TEST_CARRIER_CODE);
        if (second) expect(second.score).toBeLessThan(first.score);
        expect(winner(n)).toBe(TEST_CARRIER_CODE);
      }),
    );
  });

  it.each(['TM200TM', 'tm404-abc-tm', 'Tm 102 xyz tM', 'TM5031234567890TM'])('%s', (n) => {
    expect(winner(n)).toBe(TEST_CARRIER_CODE);
  });

  it.each(['TM20TM', 'TMABCTM', 'TM200T', 'XTM200TM', 'TM200TMX'])(
    '%s is not a test number',
    (n) => {
      expect(carrierCodes(n)).not.toContain(TEST_CARRIER_CODE);
    },
  );
});

describe('detectCarriers', () => {
  it.each(['', '   ', 'hello world', '123', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', '!!!!', '1Z'])(
    'returns [] for junk %p',
    (n) => {
      expect(detectCarriers(n)).toEqual([]);
      expect(resolveCarrier(n)).toEqual({ suggestions: [] });
    },
  );

  it('returns [] for anything with characters no format allows', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40 }),
        fc.constantFrom('#', '/', '.', '*', 'é'),
        (s, c) => {
          const n = `${s}${c}${s}`;
          fc.pre(!normaliseTrackingNumber(n).startsWith('TM'));
          expect(detectCarriers(n)).toEqual([]);
        },
      ),
    );
  });

  it('ranks candidates by score, one per carrier', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{10,34}$/), (n) => {
        const candidates = detectCarriers(n);
        const codes = candidates.map((c) => c.carrierCode);
        expect(new Set(codes).size).toBe(codes.length);
        for (let i = 1; i < candidates.length; i++) {
          expect(candidates[i - 1].score).toBeGreaterThanOrEqual(candidates[i].score);
        }
        // Each candidate is the carrier's best format.
        for (const c of candidates) {
          const best = Math.max(
            ...matchFormats(n)
              .filter((m) => m.carrierCode === c.carrierCode)
              .map((m) => m.score),
          );
          expect(c.score).toBe(best);
        }
      }),
    );
  });

  it('ranks checksum-validated formats above pattern-only ones', () => {
    const validated = COMPILED_FORMATS.filter(
      (f) => f.checksum && (f.definition.priority ?? 0) >= 0,
    );
    const patternOnly = COMPILED_FORMATS.filter((f) => !f.checksum);
    const lowestValidated = Math.min(...validated.map((f) => f.score));
    const highestPatternOnly = Math.max(...patternOnly.map((f) => f.score));
    expect(lowestValidated).toBeGreaterThan(highestPatternOnly);
  });

  it('ranks a more specific layout above a generic one', () => {
    // 80000000010 passes both Old Dominion's guaranteed format (prefix 80, Luhn) and DHL
    // Express Air's mod 7; the literal prefix wins.
    const candidates = detectCarriers('80000000010');
    expect(candidates.map((c) => c.carrierCode)).toEqual(['old-dominion', 'dhl']);
    expect(winner('80000000010')).toBe('old-dominion');
  });

  it('keeps one entry per carrier when several of its formats match', () => {
    // A 34-digit USPS number valid both as IMpb with ZIP+4 routing and as IMpb with a
    // 5-digit ZIP and an 11-digit package id.
    const rnd = seededRandom(7);
    const routed = COMPILED_FORMATS.find((f) => f.id === 'usps-420-zip4-34')!;
    let n = '';
    for (let i = 0; i < 20000 && !n; i++) {
      const candidate = generateTrackingNumber(routed, rnd);
      if (formatIds(candidate).includes('usps-impb-34-420')) n = candidate;
    }
    expect(n).not.toBe('');
    expect(carrierCodes(n).filter((c) => c === 'usps')).toHaveLength(1);
  });
});

describe('resolveCarrier', () => {
  it('fills the carrier when there is one clear winner', () => {
    expect(resolveCarrier('1Z5R89390357567127')).toEqual({
      carrier: expect.objectContaining({ code: 'ups', name: 'UPS' }),
    });
  });

  it('suggests the tied carriers when the top is shared', () => {
    // Valid FedEx Express (1,3,7 mod 11) and Purolator (Luhn) at the same score.
    const result = resolveCarrier('287809468872');
    expect(result).toEqual({
      suggestions: [
        expect.objectContaining({ code: 'fedex' }),
        expect.objectContaining({ code: 'purolator' }),
      ],
    });
  });

  it('suggests nothing when nothing matches', () => {
    expect(resolveCarrier('not a tracking number')).toEqual({ suggestions: [] });
  });
});
