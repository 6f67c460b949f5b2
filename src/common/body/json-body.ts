import express, { type Request, type Response } from 'express';
import { AppErrorCode, AppException, type FieldError } from '../errors/app.exception';

export const MAX_BODY_BYTES = 1024 * 1024;

/** Containers (objects, arrays) nested deeper than this anywhere in a body are refused. */
export const MAX_BODY_DEPTH = 64;

/** Parses JSON bodies up to 1 MB (after decompression of gzip/deflate/br bodies). */
const parseJson = express.json({ limit: MAX_BODY_BYTES, strict: false });

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** Whether requests of this method have their body read (POST, PUT, PATCH). */
export const readsBody = (method: string): boolean => BODY_METHODS.has(method);

function carriesBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/**
 * Reads, parses and checks the JSON body of `req` into `req.body`. Called once a request is
 * authenticated and within its rate limit, so a request that is refused is never parsed.
 *
 * Methods without a body (GET, DELETE) are not read. A missing body is treated as `{}` so the DTO
 * names every required field instead of failing on `undefined`. Every refusal is an
 * `AppException`: 413 too large, 415 not JSON or an unknown Content-Encoding, 400 a body that
 * does not decode as its Content-Encoding says, 422 not valid JSON or not a JSON object, 400 a
 * body nested too deep, holding reserved field names or text that is not well-formed Unicode.
 */
export async function readJsonBody(req: Request, res: Response): Promise<void> {
  if (!BODY_METHODS.has(req.method)) return;
  if (!carriesBody(req)) {
    req.body = {};
    return;
  }
  await new Promise<void>((resolve, reject) =>
    parseJson(req, res, (error?: unknown) => (error ? reject(bodyException(error)) : resolve())),
  );
  if (req.body === undefined) {
    if (!req.is('application/json')) {
      throw new AppException(
        AppErrorCode.UNSUPPORTED_MEDIA_TYPE,
        'Content-Type must be application/json',
      );
    }
    req.body = {};
    return;
  }
  if (req.body === null || typeof req.body !== 'object' || Array.isArray(req.body)) {
    throw new AppException(AppErrorCode.UNPROCESSABLE, 'Request body must be a JSON object');
  }
  checkBody(req.body as object);
}

interface BodyParserError {
  type?: string;
  status?: number;
  code?: string;
}

/** body-parser's failures, as the envelope errors the exception filter renders. */
export function bodyException(error: unknown): Error {
  const { type, status, code } = (error ?? {}) as BodyParserError;
  switch (type) {
    case 'entity.parse.failed':
      return new AppException(AppErrorCode.UNPROCESSABLE, 'Request body is not valid JSON');
    case 'entity.too.large':
      return new AppException(
        AppErrorCode.PAYLOAD_TOO_LARGE,
        `Request body exceeds ${MAX_BODY_BYTES} bytes`,
      );
    case 'encoding.unsupported':
      return new AppException(
        AppErrorCode.UNSUPPORTED_MEDIA_TYPE,
        'Unsupported Content-Encoding: use gzip, deflate, br or none',
      );
    case 'charset.unsupported':
      return new AppException(
        AppErrorCode.UNSUPPORTED_MEDIA_TYPE,
        'Unsupported body charset: use utf-8',
      );
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return new AppException(AppErrorCode.VALIDATION, 'Malformed request body');
  }
  // zlib / brotli errors: the body is not what its Content-Encoding header says it is.
  if (typeof code === 'string' && (code.startsWith('Z_') || code.startsWith('ERR__'))) {
    return new AppException(
      AppErrorCode.VALIDATION,
      'Request body does not match its Content-Encoding',
    );
  }
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new AppException(AppErrorCode.VALIDATION, 'Malformed request body');
  }
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * Names of Object.prototype members (`__proto__`, `constructor`, `toString`...). class-transformer
 * skips them when it builds a DTO, so the whitelist would never see them, and they are the
 * vocabulary of prototype pollution: refused anywhere in a body, free-form values included.
 */
const RESERVED_KEYS = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

const MAX_REPORTED = 20;

/** A node of the walk: its value, and how to name it (parent + key) when it is at fault. */
interface Node {
  value: unknown;
  parent: Node | null;
  key: string | number;
  depth: number;
}

function pathOf(node: Node): string {
  const keys: (string | number)[] = [];
  for (let n: Node = node; n.parent; n = n.parent) keys.push(n.key);
  let path = '';
  for (let i = keys.length - 1; i >= 0; i--) {
    const key = keys[i];
    if (typeof key === 'number') path += `[${key}]`;
    else path += path ? `.${key.toWellFormed()}` : key.toWellFormed();
  }
  return path;
}

/**
 * One walk of a parsed body: refuses nesting deeper than 64 levels (400 naming the limit), and
 * names every reserved key and every string (key or value) that is not well-formed Unicode (a lone
 * UTF-16 surrogate such as `"\ud800"`, which no database column can store the same way).
 */
export function checkBody(body: object): void {
  const errors = bodyFieldErrors(body);
  if (!Array.isArray(errors)) {
    throw new AppException(
      AppErrorCode.VALIDATION,
      `Request body is nested deeper than ${MAX_BODY_DEPTH} levels`,
      {
        errors: [{ field: errors.tooDeep, message: `nested deeper than ${MAX_BODY_DEPTH} levels` }],
      },
    );
  }
  if (errors.length) throw AppException.validation(errors);
}

/** The field errors of a parsed body, or the path where it nests deeper than the limit. */
export function bodyFieldErrors(body: object): FieldError[] | { tooDeep: string } {
  const errors: FieldError[] = [];
  const stack: Node[] = [{ value: body, parent: null, key: '', depth: 1 }];
  while (stack.length) {
    const node = stack.pop()!;
    const value = node.value;
    if (typeof value === 'string') {
      if (!value.isWellFormed() && errors.length < MAX_REPORTED)
        errors.push({
          field: pathOf(node),
          message: 'must be well-formed Unicode text (lone surrogate)',
        });
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (node.depth > MAX_BODY_DEPTH) return { tooDeep: pathOf(node) };
    const depth = node.depth + 1;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++)
        stack.push({ value: value[i], parent: node, key: i, depth });
      continue;
    }
    for (const key of Object.keys(value)) {
      const child: Node = {
        value: (value as Record<string, unknown>)[key],
        parent: node,
        key,
        depth,
      };
      if (errors.length >= MAX_REPORTED) {
        // Keep walking only for depth: the answer must name the limit if the body breaks it.
        stack.push(child);
        continue;
      }
      if (RESERVED_KEYS.has(key)) {
        errors.push({ field: pathOf(child), message: 'reserved field name' });
        continue;
      }
      if (!key.isWellFormed()) {
        errors.push({
          field: pathOf(child),
          message: 'field name must be well-formed Unicode text (lone surrogate)',
        });
        continue;
      }
      stack.push(child);
    }
  }
  return errors;
}
