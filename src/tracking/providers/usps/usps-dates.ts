/**
 * USPS timestamps are ISO 8601 ("2023-08-02T07:31:00Z", official example), read by the shared
 * ISO reader (offset kept; none means UTC).
 */
export { providerInstant as uspsInstant } from '../remote/provider-dates';
