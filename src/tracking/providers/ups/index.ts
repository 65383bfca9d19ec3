export { upsAdapter } from './ups-adapter';
export { upsTrackAlert } from './ups-track-alert';
