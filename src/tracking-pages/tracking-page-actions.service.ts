import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { NotFoundError, ValidationError, ViolationCodes } from '../common/errors/api-errors';
import { type CustomTheme, customThemeOf } from './custom-theme';
import { subdomainFormProblem } from './subdomain';
import { TrackingPageStore } from './tracking-page-store';
import { TrackingPagesService } from './tracking-pages.service';

/** The tracking page actions' work: the CSS theme and the subdomain check. */
@Injectable()
export class TrackingPageActions {
  constructor(
    private readonly dataSource: DataSource,
    private readonly pages: TrackingPagesService,
    private readonly store: TrackingPageStore,
  ) {}

  /** The page's CSS theme: the last regenerated snapshot, else built from the current builder. */
  async customTheme(id: string): Promise<CustomTheme> {
    const row = await this.store.theme(this.dataSource, id);
    if (!row) throw new NotFoundError();
    return row.custom_theme ?? customThemeOf(row.builder ?? {}, row.custom_theme_id);
  }

  /** Snapshots the page's theme under a new id; the caller's access was checked. */
  async regenerateTheme(id: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const page = await this.store.lockedPage(em, id);
      if (!page) throw new NotFoundError();
      this.pages.regenerateTheme(page);
      await this.store.save(em, page);
    });
  }

  /** Whether a subdomain is free across the service; 422 for one of a wrong form. */
  async checkSubdomain(subdomain: string): Promise<{ subdomain: string; available: boolean }> {
    const problem = subdomainFormProblem(subdomain);
    if (problem)
      throw ValidationError.of(
        'subdomain',
        problem,
        problem.startsWith('This value is too long')
          ? ViolationCodes.tooLong
          : ViolationCodes.regex,
      );
    return {
      subdomain,
      available: await this.pages.subdomainAvailable(this.dataSource, subdomain),
    };
  }
}
