import type { Request } from 'express';
import { Documented } from '../validation/documented';
import { Typed } from '../validation/input-types';
import type { ActionDeclaration } from './action-declaration';
import { readActionInput, readBody } from './action-input';
import { classSchema, outputSchema, queryParameters } from './action-schemas';

class TokenLike {
  @Documented({ type: 'string', description: 'The grant.', enum: ['a', 'b'], required: true })
  grant_type?: unknown;
  @Documented({ type: 'string' }) client_id?: unknown;
}

class Scored {
  @Typed('integer') @Documented({ minimum: 1, maximum: 5, nullable: true }) score?: number;
}

/** Named like an input OPEN_MAPS lists. */
class EstimateInput {
  @Typed('object') addonsQtyByKey?: Record<string, unknown>;
}
const EstimateLike = EstimateInput;

class FormScored {
  @Documented({ type: 'string' }) score?: unknown;
}

const request = (contentType: string | undefined, body: unknown): Request =>
  ({ headers: contentType ? { 'content-type': contentType } : {}, body }) as Request;

const declaration = (more: Partial<ActionDeclaration>): ActionDeclaration => ({
  method: 'POST',
  path: '/x',
  summary: 'X.',
  output: 'none',
  access: 'public',
  ...more,
});

describe('documented attributes', () => {
  it('are described, typed and required in the docs', () => {
    expect(classSchema(TokenLike)).toEqual({
      type: 'object',
      properties: {
        grant_type: { type: 'string', description: 'The grant.', enum: ['a', 'b'] },
        client_id: { type: 'string' },
      },
      required: ['grant_type'],
    });
    expect(classSchema(Scored).properties).toEqual({
      score: { type: 'integer', minimum: 1, maximum: 5, nullable: true },
    });
  });

  it('document GET inputs as query parameters', () => {
    expect(queryParameters(TokenLike)).toEqual([
      {
        name: 'grant_type',
        required: true,
        description: 'The grant.',
        schema: { type: 'string', enum: ['a', 'b'] },
      },
      { name: 'client_id', required: false, schema: { type: 'string' } },
    ]);
  });

  it('keep any value as sent; Typed beside them still checks the type', async () => {
    const input = await readActionInput(
      declaration({ input: TokenLike }),
      request('application/json', { grant_type: 12, client_id: ['x'], other: 1 }),
      (_, body) => body,
    );
    expect({ ...input }).toEqual({ grant_type: 12, client_id: ['x'] });
    await expect(
      readActionInput(
        declaration({ input: Scored }),
        request('application/json', { score: 'five' }),
        (_, body) => body,
      ),
    ).rejects.toMatchObject({ status: 400 });
  });
});

describe('form posts and lenient bodies', () => {
  it('read a form post with the form’s own DTO', async () => {
    const input = await readActionInput(
      declaration({ input: Scored, form: { input: FormScored } }),
      request('application/x-www-form-urlencoded', { score: 'five' }),
      (_, body) => body,
    );
    expect(input).toBeInstanceOf(FormScored);
    expect(input.score).toBe('five');
  });

  it('read an unreadable body as empty only when lenient', () => {
    expect(() => readBody(request('text/plain', 'x'))).toThrow(/content-type/);
    expect(() => readBody(request('application/json', [1]))).toThrow(/must be an object/);
    expect(readBody(request('text/plain', 'x'), [], true)).toEqual({});
    expect(readBody(request('application/json', [1]), [], true)).toEqual({});
    expect(readBody(request(undefined, undefined), [], true)).toEqual({});
  });
});

class Part {
  @Documented({ type: 'string', required: true }) code!: string;
}

class Assembled {
  @Documented({ type: 'integer', required: true, description: 'How many.' }) count!: number;
  @Documented({ type: 'array', of: () => Part }) parts?: Part[];
  @Documented({ of: () => Part, nullable: true }) main?: Part | null;
  @Documented({ type: 'array', items: 'string' }) tags?: string[];
}

class WithOpenMap {
  @Documented({ type: 'object' }) anything?: Record<string, unknown>;
}

class WithOpenList {
  @Typed('object', { each: true }) anything?: Array<Record<string, unknown>>;
}

describe('output classes', () => {
  it('are documented from their attributes, nested classes included', () => {
    const part = { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] };
    const schema = {
      type: 'object',
      properties: {
        count: { type: 'integer', description: 'How many.' },
        parts: { type: 'array', items: part },
        main: { ...part, nullable: true },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['count'],
    };
    // In each format the answer is negotiated between.
    expect(outputSchema(declaration({ output: { json: Assembled } }))).toEqual({
      description: 'The result.',
      content: { 'application/ld+json': { schema }, 'application/json': { schema } },
    });
  });

  it('refuse an object attribute without a class unless OPEN_MAPS names it', () => {
    expect(() => classSchema(WithOpenMap)).toThrow(/WithOpenMap.anything is an object without/);
    expect(() => classSchema(WithOpenList)).toThrow(/WithOpenList.anything is an object without/);
    // Named there (the billing add-ons map): documented as an open map.
    expect(classSchema(EstimateLike).properties).toEqual({
      addonsQtyByKey: { type: 'object', additionalProperties: true },
    });
  });
});

describe('oneOf outputs', () => {
  it('document each kind the handler may answer', () => {
    const doc = outputSchema(
      declaration({ output: { oneOf: { json: Scored, html: true, redirect: true } } }),
    );
    expect(Object.keys(doc.content ?? {})).toEqual([
      'application/ld+json',
      'application/json',
      'text/html',
    ]);
    expect(doc.description).toBe(
      'The result, or an HTML page, or a redirect (Location header), as the request asks.',
    );
    const plain = outputSchema(
      declaration({ output: { oneOf: { json: Scored } }, formats: 'any' }),
    );
    expect(Object.keys(plain.content ?? {})).toEqual(['application/json']);
  });
});

describe('file outputs', () => {
  it('document their media types as binary', () => {
    const doc = outputSchema(declaration({ output: { file: ['image/png', 'image/webp'] } }));
    expect(doc.content).toEqual({
      'image/png': { schema: { type: 'string', format: 'binary' } },
      'image/webp': { schema: { type: 'string', format: 'binary' } },
    });
  });
});
