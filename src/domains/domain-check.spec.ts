import { judgeDomain } from './domain-check';

const PAGE = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

describe('judgeDomain', () => {
  it('verifies by a CNAME to the target, whatever its case and trailing dot', () => {
    expect(
      judgeDomain(
        { cname: ['Pages.Example.com.'], txt: [], addresses: ['192.0.2.1'] },
        PAGE,
        'pages.example.com',
      ),
    ).toEqual({ accessible: true, verified: true, method: 'cname' });
  });

  it('verifies by the TXT proof, bare or prefixed', () => {
    for (const txt of [PAGE, `tracking-page=${PAGE.toUpperCase()}`, ` ${PAGE} `]) {
      expect(judgeDomain({ cname: [], txt: [txt], addresses: [] }, PAGE, undefined)).toEqual({
        accessible: false,
        verified: true,
        method: 'txt',
      });
    }
  });

  it('does not verify other targets, other ids, or a CNAME without a configured target', () => {
    const answers = { cname: ['pages.example.com'], txt: ['tracking-page=other'], addresses: [] };
    expect(judgeDomain(answers, PAGE, 'elsewhere.example.com').verified).toBe(false);
    expect(judgeDomain(answers, PAGE, undefined).verified).toBe(false);
    expect(judgeDomain({ cname: [], txt: [`${PAGE}x`], addresses: [] }, PAGE, undefined)).toEqual({
      accessible: false,
      verified: false,
      method: null,
    });
  });
});
