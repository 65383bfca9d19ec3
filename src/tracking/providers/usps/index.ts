export { uspsAdapter } from './usps-adapter';
