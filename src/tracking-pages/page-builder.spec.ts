import { BadRequestError } from '../common/errors/api-errors';
import { builderWithDefaults } from './page-builder';

describe('builderWithDefaults', () => {
  it('answers every member the reference declares, at its default when not given', () => {
    const builder = builderWithDefaults({});
    expect(Object.keys(builder)).toEqual([
      'background',
      'card',
      'searchButton',
      'detailsButton',
      'trackButton',
      'searchPageInput',
      'searchPageTitle',
      'pageScroll',
      'scripts',
      'logo',
      'socialIcons',
      'sidebar',
      'footer',
      'header',
      'languageMenu',
      'faviconUrl',
      'defaultThemeId',
      'sidebarProductsFeed',
      'mainProductsFeed',
      'seoTitle',
    ]);
    expect(builder.background).toEqual({
      color: null,
      useBackgroundImage: null,
      imageUrl: null,
      backgroundMode: null,
    });
    expect((builder.card as Record<string, unknown>).font).toEqual({
      fontColor: null,
      fontFamily: null,
      customFontUrl: null,
      customFontName: null,
      customFontUsed: null,
    });
    expect(builder.seoTitle).toBeNull();
    const feed = builder.mainProductsFeed as Record<string, any>;
    expect(feed.productItems).toBeNull();
    expect(feed.card.title.font.fontFamily).toBeNull();
    expect(feed.card.regularPrice).toMatchObject({ alignment: null, fontSize: null });
  });

  it('keeps what is given, and the members it does not declare', () => {
    const builder = builderWithDefaults({
      card: { backgroundColor: '#ffffff', borderRadius: 6, glow: 'soft' },
      general: { fontFamily: 'Merriweather' },
      footer: { links: [{ title: 'Shop' }] },
      mainProductsFeed: { card: { regularPrice: null } },
    });
    expect(builder.card).toMatchObject({
      backgroundColor: '#ffffff',
      borderRadius: 6,
      glow: 'soft',
    });
    expect(builder.general).toEqual({ fontFamily: 'Merriweather' });
    expect((builder.footer as Record<string, unknown>).links).toEqual([
      { title: 'Shop', url: null },
    ]);
    expect((builder.mainProductsFeed as Record<string, any>).card.regularPrice).toBeNull();
    // Filling a filled builder changes nothing.
    expect(builderWithDefaults(builder)).toEqual(builder);
  });

  it('answers 400 for a member of another JSON type, naming it', () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ seoTitle: 7 }, /"builder\.seoTitle" attribute must be "string", "int" given/],
      [{ logo: { on: 'yes' } }, /"builder\.logo\.on" attribute must be "bool"/],
      [{ card: 'red' }, /"builder\.card" attribute must be "array", "string" given/],
      [{ footer: { links: {} } }, /"builder\.footer\.links" attribute must be "array"/],
      [{ footer: { links: ['x'] } }, /"builder\.footer\.links\[0\]" attribute must be "array"/],
      [
        { mainProductsFeed: { sliderOptions: { arrowSize: 1, autoplayDelay: 'x' } } },
        /autoplayDelay/,
      ],
    ];
    for (const [input, message] of cases) {
      expect(() => builderWithDefaults(input)).toThrow(BadRequestError);
      expect(() => builderWithDefaults(input)).toThrow(message);
    }
    // Pixel sizes are builderViolations' (422 "should be a positive integer").
    expect(builderWithDefaults({ card: { borderRadius: 'x' } }).card).toMatchObject({
      borderRadius: 'x',
    });
  });
});
