import { NotBlank } from '../hydra/validation/constraints';
import { Typed } from '../hydra/validation/input-types';

/** `POST /public/generate-theme`. */
export class ThemeGenerateInput {
  /** The shop's page: an http(s) URL, or a bare host (`acme.com/shop`, read as https). */
  @Typed('string') @NotBlank() url!: string;
  /** Answer the theme generated from the same URL before, if any (default false). */
  @Typed('boolean') reuse?: boolean | null;
}
