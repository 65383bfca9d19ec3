/** The outcome of the last sign-in, for the login page to show. */
let lastError: string | null = null;

export function setSignInError(error: string | null): void {
  lastError = error;
}

export function signInError(): string | null {
  return lastError;
}
