import { Transform } from 'class-transformer';
import { MaxLength, NotBlank } from '../hydra/validation/constraints';
import { Typed } from '../hydra/validation/input-types';

export const MAX_SUGGESTION_LENGTH = 5000;

/** `POST /workflows/execute`: optionally one workspace's workflows. */
export class ExecuteWorkflowsInput {
  /** Id or IRI of one of the caller's workspaces; left out: every one they may write. */
  @Typed('string') workspace?: string | null;
}

/** `POST /workflows/submit-suggestion`: an integration the caller would like. */
export class WorkflowSuggestionInput {
  @Typed('string')
  @NotBlank()
  @MaxLength(MAX_SUGGESTION_LENGTH)
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  comment!: string;
}
