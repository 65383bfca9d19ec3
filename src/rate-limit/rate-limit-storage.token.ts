/** The ThrottlerStorage every rate limit uses (token endpoints, widget lookups, budgets). */
export const RATE_LIMIT_STORAGE = Symbol('RateLimitStorage');
