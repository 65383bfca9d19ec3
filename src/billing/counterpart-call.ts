import { ApiError, ValidationError, ViolationCodes } from '../common/errors/api-errors';

type ErrorClass = abstract new (...args: never[]) => Error;

/**
 * A call to a billing counterpart (the billing provider, the storefront app) with its failures
 * as API errors: a refusal answers 422 with the counterpart's message, an outage 502.
 */
export async function counterpartCall<T>(
  counterpart: { name: string; refusal: ErrorClass; unavailable: ErrorClass },
  call: () => Promise<T>,
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof counterpart.refusal)
      throw ValidationError.of(
        '',
        `The ${counterpart.name} refused the request: ${error.message}`,
        ViolationCodes.invalid,
      );
    if (error instanceof counterpart.unavailable)
      throw new ApiError(502, `The ${counterpart.name} is unavailable; try again later.`);
    throw error;
  }
}
