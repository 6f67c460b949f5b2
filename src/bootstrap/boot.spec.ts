import { bootFailureLine } from './boot';
import { DatabaseSetupError } from './prepare-database';

describe(bootFailureLine.name, () => {
  it('names a used port and the variable that moves it', () => {
    const error = Object.assign(new Error('listen EADDRINUSE: address already in use :::3000'), {
      code: 'EADDRINUSE',
      port: 3000,
    });
    expect(bootFailureLine(error)).toBe(
      'port 3000 is already in use by another process: stop it, or set PORT to a free port',
    );
  });

  it('keeps a setup error’s own line', () => {
    expect(bootFailureLine(new DatabaseSetupError('MySQL at h:3306 is not reachable'))).toBe(
      'MySQL at h:3306 is not reachable',
    );
  });

  it('is one line for an unexpected error: its class and the first line of its message', () => {
    const error = new TypeError('boom\n    at somewhere (file.ts:1:1)');
    expect(bootFailureLine(error)).toBe('TypeError: boom');
    expect(bootFailureLine(new Error('plain'))).toBe('plain');
    expect(bootFailureLine('text\nmore')).toBe('text');
  });
});
