import { Documented, type DocumentedAttribute } from '../hydra/validation/documented';

/**
 * A tracking page's `builder`, member by member as the reference service's Builder schema
 * declares it (names and JSON types; colours `#hex`, sizes in pixels). page-builder.ts reads
 * these declarations to fill the members a body leaves out (null, or the nested object with
 * its own members) and to check the types of those it gives: the answer always has them all.
 * Other members a page editor stores are kept as given.
 */
const TEXT = { type: 'string', nullable: true, required: true } as const;
const FLAG = { type: 'boolean', nullable: true, required: true } as const;
const PIXELS = { type: 'integer', nullable: true, required: true } as const;
const COLOR = { ...TEXT, description: 'A hex colour (`#1a2b3c`).' } as const;
const URL = { ...TEXT, description: 'An http(s) URL.' } as const;
const one = (of: () => Function): DocumentedAttribute => ({ type: 'object', of, required: true });
const list = (of: () => Function): DocumentedAttribute => ({
  type: 'array',
  of,
  nullable: true,
  required: true,
});

export class BuilderFont {
  @Documented(COLOR) fontColor!: string | null;
  @Documented(TEXT) fontFamily!: string | null;
  @Documented(URL) customFontUrl!: string | null;
  @Documented(TEXT) customFontName!: string | null;
  @Documented(FLAG) customFontUsed!: boolean | null;
}

export class BuilderBackground {
  @Documented(COLOR) color!: string | null;
  @Documented(FLAG) useBackgroundImage!: boolean | null;
  @Documented(URL) imageUrl!: string | null;
  @Documented(TEXT) backgroundMode!: string | null;
}

export class BuilderCard {
  @Documented(COLOR) backgroundColor!: string | null;
  @Documented(COLOR) linksColor!: string | null;
  @Documented(FLAG) linksUnderline!: boolean | null;
  @Documented(TEXT) headerBackground!: string | null;
  @Documented(TEXT) footerBackground!: string | null;
  @Documented(COLOR) borderColor!: string | null;
  @Documented(PIXELS) borderRadius!: number | null;
  @Documented(PIXELS) borderWidth!: number | null;
  @Documented(TEXT) shadow!: string | null;
  @Documented(one(() => BuilderFont)) font!: BuilderFont;
}

export class BuilderButton {
  @Documented(FLAG) on!: boolean | null;
  @Documented(one(() => BuilderFont)) font!: BuilderFont;
  @Documented(COLOR) backgroundColor!: string | null;
  @Documented(COLOR) borderColor!: string | null;
  @Documented(PIXELS) borderRadius!: number | null;
  @Documented(PIXELS) borderWidth!: number | null;
  @Documented(TEXT) shadow!: string | null;
}

export class BuilderSearchPageTitle {
  @Documented(one(() => BuilderFont)) font!: BuilderFont;
  @Documented(PIXELS) fontSize!: number | null;
}

export class BuilderPageScroll {
  @Documented(COLOR) scrollColor!: string | null;
  @Documented(PIXELS) borderRadius!: number | null;
  @Documented(COLOR) backgroundColor!: string | null;
}

export class BuilderScripts {
  @Documented(TEXT) head!: string | null;
  @Documented(TEXT) body!: string | null;
}

export class BuilderLogo {
  @Documented({ ...FLAG, description: 'False hides the logo.' }) on!: boolean | null;
  @Documented(URL) imageUrl!: string | null;
  @Documented(URL) linkUrl!: string | null;
}

export class BuilderSocialIcon {
  @Documented(URL) url!: string | null;
  @Documented(TEXT) icon!: string | null;
}

export class BuilderSocialIcons {
  @Documented(COLOR) fontColor!: string | null;
  @Documented(list(() => BuilderSocialIcon)) icons!: BuilderSocialIcon[] | null;
}

export class BuilderSidebar {
  @Documented(TEXT) parcelIcon!: string | null;
  @Documented(TEXT) groupIcon!: string | null;
  @Documented(COLOR) backgroundColor!: string | null;
  @Documented(COLOR) borderColor!: string | null;
  @Documented(PIXELS) borderRadius!: number | null;
  @Documented(PIXELS) borderWidth!: number | null;
  @Documented(TEXT) shadow!: string | null;
  @Documented(one(() => BuilderFont)) font!: BuilderFont;
}

export class BuilderFooterLink {
  @Documented(TEXT) title!: string | null;
  @Documented(URL) url!: string | null;
}

export class BuilderFooter {
  @Documented(FLAG) hideTrackmageBranding!: boolean | null;
  @Documented(list(() => BuilderFooterLink)) links!: BuilderFooterLink[] | null;
  @Documented(COLOR) backgroundColor!: string | null;
  @Documented(one(() => BuilderFont)) font!: BuilderFont;
  @Documented(COLOR) linksColor!: string | null;
  @Documented(FLAG) linksUnderline!: boolean | null;
}

export class BuilderHeader {
  @Documented(COLOR) backgroundColor!: string | null;
}

export class BuilderLanguageMenu {
  @Documented(FLAG) on!: boolean | null;
  @Documented({ ...TEXT, description: 'The language shown first (`en`, `de`, ...).' })
  defaultLan!: string | null;
  @Documented(one(() => BuilderFont)) font!: BuilderFont;
}

export class BuilderText {
  @Documented(TEXT) alignment!: string | null;
  @Documented(one(() => BuilderFont)) font!: BuilderFont;
  @Documented(PIXELS) fontSize!: number | null;
}

export class BuilderProductCard {
  @Documented(COLOR) backgroundColor!: string | null;
  @Documented(COLOR) borderColor!: string | null;
  @Documented(PIXELS) borderRadius!: number | null;
  @Documented(PIXELS) borderWidth!: number | null;
  @Documented(TEXT) shadow!: string | null;
  @Documented(one(() => BuilderButton)) button!: BuilderButton;
  @Documented(TEXT) buttonText!: string | null;
  @Documented(one(() => BuilderText)) title!: BuilderText;
  @Documented({ ...one(() => BuilderText), nullable: true }) regularPrice!: BuilderText | null;
  @Documented({ ...one(() => BuilderText), nullable: true }) discountedPrice!: BuilderText | null;
}

export class BuilderProductItem {
  @Documented(TEXT) title!: string | null;
  @Documented(URL) buttonUrl!: string | null;
  @Documented(URL) imageUrl!: string | null;
  @Documented(TEXT) regularPrice!: string | null;
  @Documented(TEXT) discountedPrice!: string | null;
}

export class BuilderSliderOptions {
  @Documented(FLAG) autoplay!: boolean | null;
  @Documented({ type: 'integer', nullable: true, required: true, description: 'Milliseconds.' })
  autoplayDelay!: number | null;
  @Documented(FLAG) loop!: boolean | null;
  @Documented(COLOR) arrowColor!: string | null;
  @Documented(PIXELS) arrowSize!: number | null;
}

export class BuilderProductsFeed {
  @Documented(FLAG) on!: boolean | null;
  @Documented(COLOR) backgroundColor!: string | null;
  @Documented(COLOR) borderColor!: string | null;
  @Documented(PIXELS) borderRadius!: number | null;
  @Documented(PIXELS) borderWidth!: number | null;
  @Documented(TEXT) shadow!: string | null;
  @Documented(one(() => BuilderProductCard)) card!: BuilderProductCard;
  @Documented(URL) feedUrl!: string | null;
  @Documented(list(() => BuilderProductItem)) productItems!: BuilderProductItem[] | null;
  @Documented(one(() => BuilderSliderOptions)) sliderOptions!: BuilderSliderOptions;
}

/** The whole builder (the reference's Builder). */
export class PageBuilder {
  @Documented(one(() => BuilderBackground)) background!: BuilderBackground;
  @Documented(one(() => BuilderCard)) card!: BuilderCard;
  @Documented(one(() => BuilderButton)) searchButton!: BuilderButton;
  @Documented(one(() => BuilderButton)) detailsButton!: BuilderButton;
  @Documented(one(() => BuilderButton)) trackButton!: BuilderButton;
  @Documented(one(() => BuilderButton)) searchPageInput!: BuilderButton;
  @Documented(one(() => BuilderSearchPageTitle)) searchPageTitle!: BuilderSearchPageTitle;
  @Documented(one(() => BuilderPageScroll)) pageScroll!: BuilderPageScroll;
  @Documented(one(() => BuilderScripts)) scripts!: BuilderScripts;
  @Documented(one(() => BuilderLogo)) logo!: BuilderLogo;
  @Documented(one(() => BuilderSocialIcons)) socialIcons!: BuilderSocialIcons;
  @Documented(one(() => BuilderSidebar)) sidebar!: BuilderSidebar;
  @Documented(one(() => BuilderFooter)) footer!: BuilderFooter;
  @Documented(one(() => BuilderHeader)) header!: BuilderHeader;
  @Documented(one(() => BuilderLanguageMenu)) languageMenu!: BuilderLanguageMenu;
  @Documented(URL) faviconUrl!: string | null;
  @Documented(TEXT) defaultThemeId!: string | null;
  @Documented(one(() => BuilderProductsFeed)) sidebarProductsFeed!: BuilderProductsFeed;
  @Documented(one(() => BuilderProductsFeed)) mainProductsFeed!: BuilderProductsFeed;
  @Documented(TEXT) seoTitle!: string | null;
}
