import { nextState } from './endpoint-health';

describe(nextState.name, () => {
  it.each([
    ['healthy', 9, 9, 'healthy'],
    ['healthy', 10, 6, 'unhealthy'],
    ['healthy', 10, 5, 'healthy'],
    ['unhealthy', 3, 2, 'unhealthy'],
    ['unhealthy', 4, 2, 'healthy'],
    ['unhealthy', 30, 16, 'unhealthy'],
  ] as const)('%s with %i attempts, %i failed: %s', (current, attempts, errors, next) => {
    expect(nextState(current, attempts, errors)).toBe(next);
  });
});
