import { problemLines } from './cli-messages';

describe(problemLines.name, () => {
  const options = { user_name: '--name', user_email: '--email', scopes: '--scopes' };

  it('reports one line per field, with its first message, naming the option', () => {
    expect(
      problemLines(
        [
          { field: 'user_email', message: 'user_email is required' },
          { field: 'user_email', message: 'user_email must be an email' },
        ],
        options,
      ),
    ).toEqual(['--email (user_email): user_email is required']);
  });

  it('keeps distinct fields apart, elements of a list included, and names unknown ones as they are', () => {
    expect(
      problemLines(
        [
          { field: 'user_name', message: 'user_name is required' },
          { field: 'user_email', message: 'user_email must be an email' },
          { field: 'scopes[0]', message: 'each value in scopes must be one of: config, runtime' },
          { field: 'other', message: 'unknown field' },
        ],
        options,
      ),
    ).toEqual([
      '--name (user_name): user_name is required',
      '--email (user_email): user_email must be an email',
      '--scopes (scopes[0]): each value in scopes must be one of: config, runtime',
      'other: unknown field',
    ]);
  });
});
