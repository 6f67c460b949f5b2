import { AppException } from '../errors/app.exception';
import { bodyException, bodyFieldErrors, checkBody, MAX_BODY_DEPTH } from './json-body';

describe(bodyFieldErrors.name, () => {
  const errorsOf = (body: object): string[] =>
    (bodyFieldErrors(body) as { field: string; message: string }[])
      .map((error) => `${error.field}: ${error.message}`)
      .sort();

  it('finds Object.prototype member names at any depth, with their paths', () => {
    const body = JSON.parse(
      '{"a":{"__proto__":{"x":1}},"list":[{"constructor":1}],"toString":"x","fine":{"name":"y"}}',
    ) as object;
    expect(errorsOf(body)).toEqual([
      'a.__proto__: reserved field name',
      'list[0].constructor: reserved field name',
      'toString: reserved field name',
    ]);
  });

  it('accepts ordinary bodies', () => {
    expect(errorsOf({ assistant_name: 'x', nested: [{ key: 'v' }] })).toEqual([]);
  });
});

describe(checkBody.name, () => {
  const nested = (levels: number): object => {
    let value: object = {};
    for (let i = 1; i < levels; i++) value = { a: value };
    return value;
  };
  const errorOf = (body: object): AppException => {
    try {
      checkBody(body);
    } catch (error) {
      return error as AppException;
    }
    throw new Error('checkBody accepted the body');
  };

  it(`accepts ${MAX_BODY_DEPTH} levels of nesting and refuses ${MAX_BODY_DEPTH + 1}, naming the limit`, () => {
    expect(() => checkBody(nested(MAX_BODY_DEPTH))).not.toThrow();
    const error = errorOf(nested(MAX_BODY_DEPTH + 1));
    expect(error.status).toBe(400);
    expect(error.message).toBe(`Request body is nested deeper than ${MAX_BODY_DEPTH} levels`);
  });

  it('refuses ~9,000 levels of arrays without overflowing the stack', () => {
    const deep = JSON.parse('['.repeat(9000) + ']'.repeat(9000)) as object;
    expect(errorOf({ x: deep }).message).toContain(`${MAX_BODY_DEPTH} levels`);
  });

  it('names every string that is not well-formed Unicode, values and keys, with its path', () => {
    const body = JSON.parse(
      '{"assistant_tts_config":{"voice_id":"ab\\ud800"},"tools":[{"url":"\\udc00x"}],"ok":"\\ud83d\\ude00","h":{"k\\ud800":1}}',
    ) as object;
    const error = errorOf(body);
    expect(error.status).toBe(400);
    const fields = (error.data as { errors: { field: string }[] }).errors
      .map((e) => e.field)
      .sort();
    expect(fields).toEqual(['assistant_tts_config.voice_id', 'h.k\ufffd', 'tools[0].url']);
  });

  it('accepts well-formed text, emoji (surrogate pairs) included', () => {
    expect(() => checkBody({ name: 'Zoë 😀', list: ['日本語'] })).not.toThrow();
  });
});

describe(bodyException.name, () => {
  it.each([
    [{ status: 400, code: 'Z_DATA_ERROR', message: 'incorrect header check' }, 400],
    [{ status: 400, code: 'ERR__ERROR_FORMAT_PADDING_2', message: 'Decompression failed' }, 400],
    [{ status: 415, type: 'encoding.unsupported' }, 415],
    [{ status: 413, type: 'entity.too.large' }, 413],
    [{ status: 400, type: 'entity.parse.failed' }, 422],
  ])('maps %j to %i in the envelope', (error, status) => {
    const mapped = bodyException(Object.assign(new Error('x'), error));
    expect(mapped).toBeInstanceOf(AppException);
    expect((mapped as AppException).status).toBe(status);
  });
});
