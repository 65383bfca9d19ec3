import type { INestApplication } from '@nestjs/common';
import request from 'supertest';

export const JSON_LD = 'application/ld+json';
export const PLAIN_JSON = 'application/json';
export const MERGE_PATCH = 'application/merge-patch+json';

export interface ApiOptions {
  /** Bearer token sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** Accept header (default JSON-LD). */
  accept?: string;
  /** Content-Type of POST/PUT bodies (default JSON-LD; PATCH uses merge-patch+json). */
  contentType?: string;
}

/**
 * Small supertest wrapper speaking JSON-LD by default:
 * `await api(app).withToken(t).post('/shipments', body).expect(201)`,
 * `await api(app).json().get('/shipments')` for plain JSON.
 */
export function api(app: INestApplication | string, options: ApiOptions = {}) {
  const agent = request(typeof app === 'string' ? app : app.getHttpServer());
  const prepare = (test: request.Test) => {
    test.set('Accept', options.accept ?? JSON_LD);
    if (options.token) test.set('Authorization', `Bearer ${options.token}`);
    return test;
  };
  const withBody = (test: request.Test, body: unknown, type: string) => {
    prepare(test).set('Content-Type', type);
    return body === undefined ? test : test.send(body as object);
  };
  const contentType = options.contentType ?? JSON_LD;

  return {
    get: (path: string) => prepare(agent.get(path)),
    delete: (path: string) => prepare(agent.delete(path)),
    post: (path: string, body?: unknown) => withBody(agent.post(path), body, contentType),
    put: (path: string, body?: unknown) => withBody(agent.put(path), body, contentType),
    patch: (path: string, body?: unknown) =>
      withBody(agent.patch(path), body, options.contentType ?? MERGE_PATCH),
    /** Same helpers with a bearer token. */
    withToken: (token: string) => api(app, { ...options, token }),
    /** Same helpers sending and accepting plain `application/json`. */
    json: () => api(app, { ...options, accept: PLAIN_JSON, contentType: PLAIN_JSON }),
  };
}
