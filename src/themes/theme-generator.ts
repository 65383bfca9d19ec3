import { Inject, Injectable } from '@nestjs/common';
import { ValidationError, ViolationCodes } from '../common/errors/api-errors';
import { customThemeOf } from '../tracking-pages/custom-theme';
import { BrandTheme, builderOf, extractBrand, stylesheetUrls } from './brand-extractor';
import { GeneratedThemeStore } from './generated-theme-store';
import { PAGE_FETCHER, PageFetchError, PageFetcher } from './page-fetcher';

export interface GeneratedTheme extends BrandTheme {
  /** A tracking page `builder` made of the brand (POST/PUT /tracking_pages). */
  builder: Record<string, unknown>;
  /** The tracking page CSS of that builder. */
  css: string;
}

/** How long a generated theme is reused for the same address when `reuse` is asked. */
const REUSE_DAYS = 7;

/**
 * Themes from shop pages: fetch the page (and up to three of its stylesheets) through the
 * PageFetcher, read the brand, turn it into a tracking page builder and its CSS, and keep the
 * result under an id (also usable as a tracking page's `customThemeId`).
 */
@Injectable()
export class ThemeGenerator {
  constructor(
    private readonly store: GeneratedThemeStore,
    @Inject(PAGE_FETCHER) private readonly fetcher: PageFetcher,
  ) {}

  async generate(
    url: string,
    reuse: boolean,
  ): Promise<{ id: string; theme: GeneratedTheme; reused: boolean }> {
    if (reuse) {
      const row = await this.store.recent<GeneratedTheme>(url, REUSE_DAYS);
      if (row) return { id: row.id, theme: row.theme, reused: true };
    }
    const page = await this.fetch(url);
    if (!/html/i.test(page.contentType))
      throw ValidationError.of(
        'url',
        'The address does not serve an HTML page.',
        ViolationCodes.invalid,
      );
    const sheets: string[] = [];
    for (const sheet of stylesheetUrls(page.body, page.url)) {
      // A stylesheet that cannot be fetched only leaves its colours out.
      const css = await this.fetcher.fetch(sheet, { maxBytes: 500_000 }).catch(() => null);
      if (css) sheets.push(css.body);
    }
    const brand = extractBrand(page.body, page.url, sheets);
    const builder = builderOf(brand);
    const id = await this.store.create(url);
    const theme: GeneratedTheme = { ...brand, builder, css: customThemeOf(builder, id).css };
    await this.store.setTheme(id, theme);
    return { id, theme, reused: false };
  }

  async find(id: string): Promise<GeneratedTheme | null> {
    return this.store.theme<GeneratedTheme>(id);
  }

  private async fetch(url: string) {
    try {
      return await this.fetcher.fetch(url);
    } catch (error) {
      if (error instanceof PageFetchError)
        throw ValidationError.of(
          'url',
          `The page could not be fetched: ${error.message}.`,
          ViolationCodes.invalid,
        );
      throw error;
    }
  }
}
