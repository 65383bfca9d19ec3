export * from './no-info-tracking-provider';
export * from './sandbox';
export * from './tracking-provider';
export * from './tracking-provider-error';
export * from './tracking-provider-registry';
