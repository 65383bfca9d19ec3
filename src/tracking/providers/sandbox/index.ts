export * from './sandbox-numbers';
export * from './sandbox-tracking-provider';
