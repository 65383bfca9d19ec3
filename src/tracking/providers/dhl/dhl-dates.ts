/**
 * UTAPI timestamps are ISO 8601, usually with an offset ("2018-03-02T07:53:47Z"), but DHL
 * Express events may come as bare local times ("2022-11-15T10:41:00"; offset UNCONFIRMED),
 * which the shared reader (remote/provider-dates.ts) takes as UTC.
 */
export { providerInstant as dhlInstant } from '../remote/provider-dates';
