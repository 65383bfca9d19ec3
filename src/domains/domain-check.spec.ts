import { judgeDomain, txtProof } from './domain-check';

const TOKEN = '0f8e3c9a5b7d4e21a6c3b9d8e7f60123';
const PAGE = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

describe('judgeDomain', () => {
  it('verifies by the TXT proof of the page’s token, whatever its case and spaces', () => {
    for (const txt of [txtProof(TOKEN), ` ${txtProof(TOKEN).toUpperCase()} `]) {
      expect(
        judgeDomain({ cname: [], txt: ['v=spf1 -all', txt], addresses: [] }, TOKEN, undefined),
      ).toEqual({ accessible: false, cname: false, verified: true, method: 'txt' });
    }
  });

  it('reports a CNAME to the target, whatever its case and trailing dot, but it proves nothing', () => {
    expect(
      judgeDomain(
        { cname: ['Pages.Example.com.'], txt: [], addresses: ['192.0.2.1'] },
        TOKEN,
        'pages.example.com',
      ),
    ).toEqual({ accessible: true, cname: true, verified: false, method: null });
    expect(
      judgeDomain(
        { cname: ['pages.example.com'], txt: [txtProof(TOKEN)], addresses: ['192.0.2.1'] },
        TOKEN,
        'pages.example.com',
      ),
    ).toEqual({ accessible: true, cname: true, verified: true, method: 'txt' });
  });

  it('does not verify by another token, the bare token, a page id or another target', () => {
    for (const txt of [
      txtProof('1'.repeat(32)),
      TOKEN,
      `${txtProof(TOKEN)}x`,
      `tracking-page=${PAGE}`,
      PAGE,
    ])
      expect(judgeDomain({ cname: [], txt: [txt], addresses: [] }, TOKEN, undefined).verified).toBe(
        false,
      );
    const answers = { cname: ['pages.example.com'], txt: [], addresses: [] };
    expect(judgeDomain(answers, TOKEN, 'elsewhere.example.com').cname).toBe(false);
    expect(judgeDomain(answers, TOKEN, undefined).cname).toBe(false);
  });
});
