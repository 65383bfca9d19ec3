export * from './filter';
export * from './exact-filter';
export * from './date-filter';
export * from './range-filter';
export * from './order-filter';
export * from './exists-filter';
export * from './empty-filter';
export * from './boolean-filter';
