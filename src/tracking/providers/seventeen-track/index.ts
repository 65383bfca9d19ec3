export {
  seventeenTrackAdapter,
  seventeenTrackSignature,
  SEVENTEEN_TRACK_BATCH,
} from './seventeen-track-adapter';
