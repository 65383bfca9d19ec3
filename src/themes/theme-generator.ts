import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ValidationError, ViolationCodes } from '../common/errors/api-errors';
import { customThemeOf } from '../tracking-pages/custom-theme';
import { BrandTheme, builderOf, extractBrand, stylesheetUrls } from './brand-extractor';
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
    private readonly dataSource: DataSource,
    @Inject(PAGE_FETCHER) private readonly fetcher: PageFetcher,
  ) {}

  async generate(
    url: string,
    reuse: boolean,
  ): Promise<{ id: string; theme: GeneratedTheme; reused: boolean }> {
    if (reuse) {
      const [row] = await this.dataSource.query(
        `SELECT id, theme FROM generated_theme
          WHERE source_url = $1 AND created_at > now() - make_interval(days => $2)
          ORDER BY created_at DESC LIMIT 1`,
        [url, REUSE_DAYS],
      );
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
    const [row] = await this.dataSource.query(
      `INSERT INTO generated_theme (source_url, theme) VALUES ($1, '{}'::jsonb) RETURNING id`,
      [url],
    );
    const theme: GeneratedTheme = { ...brand, builder, css: customThemeOf(builder, row.id).css };
    await this.dataSource.query(`UPDATE generated_theme SET theme = $2 WHERE id = $1`, [
      row.id,
      JSON.stringify(theme),
    ]);
    return { id: row.id, theme, reused: false };
  }

  async find(id: string): Promise<GeneratedTheme | null> {
    const [row] = await this.dataSource.query(`SELECT theme FROM generated_theme WHERE id = $1`, [
      id,
    ]);
    return row?.theme ?? null;
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
