export { ship24Adapter } from './ship24-adapter';
