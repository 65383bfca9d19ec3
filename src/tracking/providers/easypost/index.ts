export { easypostAdapter } from './easypost-adapter';
