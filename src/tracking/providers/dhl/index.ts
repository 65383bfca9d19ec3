export { dhlAdapter } from './dhl-adapter';
