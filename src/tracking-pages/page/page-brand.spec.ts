import { brandOf, ownImagePath, readableOn, safeLink } from './page-brand';
import { brandCss, pageCsp } from './page-renderer';

describe('page brand', () => {
  const media = '/media/files/0f8fad5b-d9cb-469f-a165-70867728950e/logo.png';

  it('shows only images this app serves', () => {
    expect(ownImagePath(media, [])).toBe(media);
    expect(ownImagePath(`https://track.example${media}`, ['https://track.example'])).toBe(media);
    expect(ownImagePath(`https://cdn.example${media}`, ['https://track.example'])).toBeNull();
    expect(ownImagePath('https://track.example/other.png', ['https://track.example'])).toBeNull();
    expect(ownImagePath('javascript:x', [])).toBeNull();
  });

  it('keeps only http(s) links', () => {
    expect(safeLink('https://shop.example/')).toBe('https://shop.example/');
    expect(safeLink('javascript:alert(1)')).toBeNull();
    expect(safeLink(7)).toBeNull();
  });

  it('picks a readable text colour', () => {
    expect(readableOn('#0b3d2e', '#000')).toBe('#ffffff');
    expect(readableOn('#ffe', '#000')).toBe('#111111');
    expect(readableOn(undefined, '#123')).toBe('#123');
  });

  it('takes colours, a safe font and the logo from the builder', () => {
    const brand = brandOf({
      builder: {
        header: { backgroundColor: '#ffffff' },
        trackButton: { backgroundColor: '#0b6e4f' },
        card: { font: { fontFamily: 'Georgia', customFontName: 'x";}body{color:red' } },
        logo: { imageUrl: 'https://cdn.example/logo.png', linkUrl: 'https://shop.example' },
      },
      pageTitle: '  ',
      workspace: { title: 'Acme', logoPath: media },
      ownOrigins: [],
      defaultTitle: 'Track',
    });
    expect(brand).toMatchObject({
      title: 'Acme',
      fontFamily: expect.stringMatching(/^"Georgia", system-ui/),
      headerText: '#111111',
      buttonText: '#ffffff',
      logoPath: media,
      logoLink: 'https://shop.example/',
    });
    expect(brandCss(brand)).toContain('--tp-track-button-background-color:#0b6e4f');
    expect(() => brandCss({ ...brand, fontFamily: '</style>' })).toThrow('unsafe brand CSS');
  });

  it('has a strict CSP with the nonce', () => {
    const csp = pageCsp('abc');
    expect(csp).toContain("script-src 'nonce-abc'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe');
  });
});
