import type { Request, Response } from 'express';
import type { Responder } from '../hydra/serialization/responder';

/**
 * A JSON answer of an action endpoint (not a stored resource): JSON-LD carries `@context`,
 * `@id` and `@type` like API Platform's DTO outputs; plain JSON only the payload.
 */
export function sendAction(
  responder: Responder,
  req: Request,
  res: Response,
  type: string,
  payload: Record<string, unknown>,
  status = 200,
  id?: string,
): void {
  const format = responder.negotiate(req, ['jsonld', 'json']);
  const body =
    format === 'jsonld'
      ? { '@context': `/contexts/${type}`, '@id': id ?? req.path, '@type': type, ...payload }
      : payload;
  responder.json(req, res, body, status);
}
