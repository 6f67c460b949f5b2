import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { envelope } from '../envelope/envelope';

export const MAX_BODY_BYTES = 1024 * 1024;

/** Parses JSON bodies up to 1 MB; anything else that carries a body is refused below. */
export const jsonBodyParser: RequestHandler = express.json({
  limit: MAX_BODY_BYTES,
  strict: false,
});

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * After parsing: a body that is present but is not a JSON object is 422; a body sent with a
 * content type other than JSON is 415. A missing body is treated as `{}` so the DTO names every
 * required field instead of failing on `undefined`.
 */
export const requireObjectBody: RequestHandler = (req, res, next) => {
  if (!BODY_METHODS.has(req.method)) return next();
  const length = Number(req.headers['content-length'] ?? 0);
  const hasBody = length > 0 || req.headers['transfer-encoding'] !== undefined;
  if (req.body === undefined) {
    if (hasBody && !req.is('application/json')) {
      res.status(415).json(envelope(false, 'Content-Type must be application/json', null));
      return;
    }
    req.body = {};
    return next();
  }
  if (req.body === null || typeof req.body !== 'object' || Array.isArray(req.body)) {
    res.status(422).json(envelope(false, 'Request body must be a JSON object', null));
    return;
  }
  const reserved = reservedKeyPaths(req.body as object);
  if (reserved.length) {
    const errors = reserved.map((field) => ({ field, message: 'reserved field name' }));
    res.status(400).json(envelope(false, 'Validation failed', { errors }));
    return;
  }
  next();
};

/**
 * Names of Object.prototype members (`__proto__`, `constructor`, `toString`...). class-transformer
 * skips them when it builds a DTO, so the whitelist would never see them, and they are the
 * vocabulary of prototype pollution: refused anywhere in a body, free-form values included.
 */
const RESERVED_KEYS = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);
const MAX_DEPTH = 64;

/** Paths (`a.b[0].c`) of reserved keys in a parsed body; a body nested deeper than 64 levels is walked to that depth. */
export function reservedKeyPaths(body: object): string[] {
  const found: string[] = [];
  const stack: [unknown, string, number][] = [[body, '', 0]];
  while (stack.length && found.length < 20) {
    const [value, path, depth] = stack.pop()!;
    if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) continue;
    if (Array.isArray(value)) {
      value.forEach((item, i) => stack.push([item, `${path}[${i}]`, depth + 1]));
      continue;
    }
    for (const key of Object.keys(value)) {
      const keyPath = path ? `${path}.${key}` : key;
      if (RESERVED_KEYS.has(key)) found.push(keyPath);
      else stack.push([(value as Record<string, unknown>)[key], keyPath, depth + 1]);
    }
  }
  return found;
}

interface BodyParserError extends Error {
  type?: string;
  status?: number;
}

/** Turns body-parser failures into the envelope: unparseable JSON 422, too large 413. */
export const bodyErrorHandler: ErrorRequestHandler = (err: BodyParserError, _req, res, next) => {
  switch (err.type) {
    case 'entity.parse.failed':
      res.status(422).json(envelope(false, 'Request body is not valid JSON', null));
      return;
    case 'entity.too.large':
      res.status(413).json(envelope(false, `Request body exceeds ${MAX_BODY_BYTES} bytes`, null));
      return;
    case 'encoding.unsupported':
    case 'charset.unsupported':
      res.status(415).json(envelope(false, 'Unsupported body encoding', null));
      return;
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      res.status(400).json(envelope(false, 'Malformed request body', null));
      return;
    default:
      next(err);
  }
};
