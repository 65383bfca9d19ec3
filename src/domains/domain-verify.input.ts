import { NotBlank } from '../hydra/validation/constraints';
import { Typed } from '../hydra/validation/input-types';

/** `POST /domain/verify`: the custom domain of one of the caller's tracking pages. */
export class DomainVerifyInput {
  @Typed('string') @NotBlank() domain!: string;
}
