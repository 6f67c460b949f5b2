import { classifyFailure, ERROR_CLASSES, type FailureKind } from './error-class';

describe(classifyFailure.name, () => {
  it.each([
    [401, 'auth'],
    [403, 'auth'],
    [400, 'http_4xx'],
    [404, 'http_4xx'],
    [408, 'http_4xx'],
    [429, 'http_4xx'],
    [500, 'http_5xx'],
    [503, 'http_5xx'],
    [599, 'http_5xx'],
    [302, 'invalid_response'],
    [101, 'invalid_response'],
    [null, 'invalid_response'],
  ] as const)('HTTP %s answered: %s', (status, expected) => {
    expect(classifyFailure('http_error', status)).toBe(expected);
  });

  it.each([
    ['timeout', 'timeout'],
    ['network', 'network'],
    ['network_error', 'network'],
    ['blocked', 'blocked'],
    ['too_large', 'invalid_response'],
    ['invalid_json', 'invalid_response'],
    ['invalid_response', 'invalid_response'],
    ['prompt_too_large', 'invalid_response'],
    ['mapping_not_found', 'config'],
    ['assistant_not_found', 'config'],
    ['strategy_not_found', 'config'],
    ['strategy_inactive', 'config'],
    ['missing_url', 'config'],
    ['secret_not_found', 'config'],
    ['tool_not_found', 'config'],
    ['tool_not_attached', 'config'],
    ['invalid_arguments', 'config'],
    ['expired', 'internal'],
    ['internal', 'internal'],
  ] as const)('%s: %s', (kind, expected) => {
    expect(classifyFailure(kind, 500)).toBe(expected);
  });

  it('answers internal for a kind it does not know, never undefined', () => {
    expect(classifyFailure('something_new' as FailureKind)).toBe('internal');
  });

  it('only ever answers one of the ten classes', () => {
    expect(ERROR_CLASSES).toHaveLength(10);
    expect(ERROR_CLASSES).toContain('auth');
    expect(ERROR_CLASSES).not.toContain('http_error');
  });
});
