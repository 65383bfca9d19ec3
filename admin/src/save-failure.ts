/**
 * What the console says when a save fails. API Platform Admin's own notice for a 422 is
 * "Server communication error" as a warning, though the service answered and its violations
 * already show at their fields: a 422 says the form needs fixing instead; any other failure
 * says what the service said (its error description), or react-admin's generic text.
 */
export function saveFailureMessage(error: unknown): string {
  if (typeof error === 'string') return error;
  const failure = error as { status?: number; message?: string } | null | undefined;
  if (failure?.status === 422) return 'ra.message.invalid_form';
  return failure?.message || 'ra.notification.http_error';
}
