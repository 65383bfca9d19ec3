import { builderViolations } from '../tracking-pages/custom-theme';
import { builderOf, extractBrand, stylesheetUrls } from './brand-extractor';
import { normalizeColor } from './css-colors';

const SHOP = `<!doctype html>
<html>
<head>
  <title>Acme Outdoor &amp; Co</title>
  <meta name="theme-color" content="#0B6E4F">
  <meta property="og:image" content="/og.png">
  <link rel="icon" href="/favicon.ico">
  <link rel="stylesheet" href="/assets/theme.css">
  <link href="https://fonts.googleapis.com/css?family=Poppins:400,700|Open+Sans" rel="stylesheet">
  <style>
    /* body { background: #000 } is a comment */
    :root { --color-accent: rgb(255, 111, 0); --spacing: 4px; }
    body { background-color: #FAFAF5; color: #1f2933; font-family: "Open Sans", Arial, sans-serif; }
    h1, h2 { font-family: 'Poppins', sans-serif; }
    .btn-primary { background: #0b6e4f; color: #fff; }
  </style>
  <script>document.body.style.background = "#ff00ff";</script>
</head>
<body>
  <!-- <img class="logo" src="/old-logo.png"> -->
  <header><img class="site-logo" src="images/logo.svg" alt="Acme"></header>
  <a style="color: hsl(210, 80%, 40%)">Shop</a>
</body>
</html>`;

describe('extractBrand', () => {
  it('reads colours, fonts, logo, favicon and name', () => {
    const theme = extractBrand(SHOP, 'https://acme.example/shop/');
    expect(theme).toEqual({
      name: 'Acme Outdoor & Co',
      sourceUrl: 'https://acme.example/shop/',
      logo: 'https://acme.example/shop/images/logo.svg',
      favicon: 'https://acme.example/favicon.ico',
      colors: {
        primary: '#0b6e4f',
        secondary: '#ff6f00',
        background: '#fafaf5',
        text: '#1f2933',
      },
      fonts: { heading: 'Poppins', body: 'Open Sans', all: ['Open Sans', 'Poppins'] },
      detected: { primary: true, secondary: true, background: true, text: true },
    });
  });

  it('uses linked stylesheets and falls back to defaults it says are defaults', () => {
    const bare = extractBrand('<html><head></head><body>Hi</body></html>', 'https://x.example/');
    expect(bare.detected).toEqual({
      primary: false,
      secondary: false,
      background: false,
      text: false,
    });
    expect(bare.colors.background).toBe('#ffffff');
    expect(bare.logo).toBeNull();
    const styled = extractBrand('<html></html>', 'https://x.example/', [
      '.header { background-color: #c2185b } body { font: 16px/1.4 "Lato", sans-serif }',
    ]);
    expect(styled.colors.primary).toBe('#c2185b');
    expect(styled.fonts.body).toBe('Lato');
  });

  it('lists linked stylesheets as absolute URLs, fonts and data URLs left out', () => {
    expect(stylesheetUrls(SHOP, 'https://acme.example/shop/')).toEqual([
      'https://acme.example/assets/theme.css',
    ]);
  });

  it('gives a builder the tracking page accepts', () => {
    const builder = builderOf(extractBrand(SHOP, 'https://acme.example/'));
    expect(builderViolations(builder)).toEqual([]);
    expect(builder).toMatchObject({
      header: { backgroundColor: '#0b6e4f', textColor: '#ffffff' },
      button: { borderRadius: 4 },
    });
  });

  it('stays linear on hostile input', () => {
    const hostile = '<a '.repeat(50_000) + '<style>'.repeat(10_000) + '{'.repeat(50_000);
    const started = Date.now();
    extractBrand(hostile, 'https://x.example/');
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('normalizeColor', () => {
  it.each([
    ['#ABC', '#aabbcc'],
    ['#aabbccff', '#aabbcc'],
    ['#aabbcc00', null],
    ['rgb(255, 0, 10)', '#ff000a'],
    ['rgba(0,0,0,0)', null],
    ['rgb(100% 0% 0% / 50%)', '#ff0000'],
    ['hsl(120, 100%, 25%)', '#008000'],
    ['Navy', '#000080'],
    ['transparent', null],
    ['var(--x)', null],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeColor(input)).toBe(expected);
  });
});

describe('extractBrand on hostile CSS', () => {
  it('reads long runs of blanks in font families and an unclosed comment', () => {
    const css =
      `body{font-family:"Inter${' '.repeat(2000)}x"}`.repeat(500) +
      `h1{font-family: Lora !important}` +
      '/*'.repeat(10_000);
    const brand = extractBrand('<title>t</title>', 'https://s.test/', [css]);
    expect(brand.fonts.heading).toBe('Lora');
  });
});
