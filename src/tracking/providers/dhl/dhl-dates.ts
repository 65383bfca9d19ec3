/**
 * UTAPI timestamps are ISO 8601, usually with an offset ("2018-03-02T07:53:47Z"), but DHL
 * Express events may come as bare local times ("2022-11-15T10:41:00"; offset UNCONFIRMED),
 * which the shared ISO reader takes as UTC.
 */
export { isoInstant as dhlInstant } from '../remote/iso-instant';
