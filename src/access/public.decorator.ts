import { Access } from './access.decorator';

/** Marks a route or controller as reachable without a bearer token (`@Access('public')`). */
export const Public = () => Access('public');
