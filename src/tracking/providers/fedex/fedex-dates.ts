/**
 * FedEx dates are ISO 8601 local times with their offset ("2018-02-02T12:01:00-07:00"),
 * read by the shared ISO reader (offset kept; none means UTC).
 */
export { isoInstant as fedexInstant } from '../remote/iso-instant';
