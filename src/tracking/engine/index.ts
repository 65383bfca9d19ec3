export * from './country-names';
export * from './next-check';
export * from './status-engine';
export * from './tracking-input';
