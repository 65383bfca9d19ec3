export { upsAdapter } from './ups-adapter';
export { subscribeUpsTrackAlert } from './ups-track-alert';
