export { aftershipAdapter } from './aftership-adapter';
