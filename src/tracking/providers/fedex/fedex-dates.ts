/**
 * FedEx dates are ISO 8601 local times with their offset ("2018-02-02T12:01:00-07:00"),
 * read by the shared reader (remote/provider-dates.ts) (offset kept; none means UTC).
 */
export { providerInstant as fedexInstant } from '../remote/provider-dates';
