import { Module } from '@nestjs/common';
import { HttpPageFetcher, PAGE_FETCHER } from './page-fetcher';
import { GeneratedThemeStore } from './generated-theme-store';
import { ThemeGenerator } from './theme-generator';
import { ThemesController } from './themes.controller';

/** Tracking page themes generated from a shop's own page (POST /public/generate-theme). */
@Module({
  controllers: [ThemesController],
  providers: [
    ThemeGenerator,
    GeneratedThemeStore,
    { provide: PAGE_FETCHER, useClass: HttpPageFetcher },
  ],
})
export class ThemesModule {}
