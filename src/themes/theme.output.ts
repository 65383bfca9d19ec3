import { Documented } from '../hydra/validation/documented';

const COLOR = { type: 'string', required: true, description: 'A hex colour.' } as const;

/** The brand's colours (from the page, or defaults and derived ones). */
export class ThemeColors {
  @Documented(COLOR) primary!: string;
  @Documented(COLOR) secondary!: string;
  @Documented(COLOR) background!: string;
  @Documented(COLOR) text!: string;
}

/** The brand's fonts. */
export class ThemeFonts {
  @Documented({ type: 'string', nullable: true, required: true }) heading!: string | null;
  @Documented({ type: 'string', nullable: true, required: true }) body!: string | null;
  @Documented({
    type: 'array',
    items: 'string',
    required: true,
    description: 'Every family the page names.',
  })
  all!: string[];
}

/** Which colours came from the page itself. */
export class DetectedColors {
  @Documented({ type: 'boolean', required: true }) primary!: boolean;
  @Documented({ type: 'boolean', required: true }) secondary!: boolean;
  @Documented({ type: 'boolean', required: true }) background!: boolean;
  @Documented({ type: 'boolean', required: true }) text!: boolean;
}

/** A tracking page theme made from a shop's page. */
export class GeneratedThemeOutput {
  @Documented({ type: 'string', format: 'uuid', required: true }) themeId!: string;
  @Documented({ type: 'string', required: true, description: 'Where the theme is read again.' })
  link!: string;
  @Documented({ type: 'string', nullable: true, required: true }) name!: string | null;
  @Documented({ type: 'string', required: true, description: 'The page it was made from.' })
  sourceUrl!: string;
  @Documented({ type: 'string', nullable: true, required: true }) logo!: string | null;
  @Documented({ type: 'string', nullable: true, required: true }) favicon!: string | null;
  @Documented({ of: () => ThemeColors, required: true }) colors!: ThemeColors;
  @Documented({ of: () => ThemeFonts, required: true }) fonts!: ThemeFonts;
  @Documented({ of: () => DetectedColors, required: true }) detected!: DetectedColors;
  @Documented({
    type: 'object',
    required: true,
    description: 'A tracking page `builder` of the brand.',
  })
  builder!: Record<string, unknown>;
  @Documented({
    type: 'string',
    required: true,
    description: 'The tracking page CSS of that builder.',
  })
  css!: string;
}
