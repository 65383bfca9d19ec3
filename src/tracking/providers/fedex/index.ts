export { fedexAdapter } from './fedex-adapter';
