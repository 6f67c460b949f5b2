import { headerRecordProblem } from './header-validators';

describe(headerRecordProblem.name, () => {
  it('accepts ordinary headers', () => {
    expect(
      headerRecordProblem({ Authorization: 'Bearer x', 'X-Tenant': 'acme' }, 50, false),
    ).toBeNull();
    expect(headerRecordProblem({ 'X-Old': null }, 50, true)).toBeNull();
  });

  it.each([
    [[], 'must be an object of header names to string values'],
    [{ 'Bad Name': 'v' }, 'has an invalid header name "Bad Name"'],
    [{ 'X-A': 'a\r\nX-B: b' }, 'header "X-A" has an invalid value'],
    [{ 'X-N': 5 }, 'header "X-N" must be a string'],
    [{ 'X-Old': null }, 'header "X-Old" must be a string'],
    [{ 'Content-Length': '5' }, 'must not set the "Content-Length" header'],
    [{ 'webhook-signature': 'v1,x' }, 'must not set the "webhook-signature" header'],
    [{ Authorization: 'a', authorization: 'b' }, 'has the header "authorization" more than once'],
    [{ 'X-Key': 'a', 'x-KEY': null }, 'has the header "x-KEY" more than once'],
  ])('refuses %j', (headers, problem) => {
    expect(headerRecordProblem(headers, 50, false)).toContain(problem);
  });

  it.each([
    ['NEL (U+0085)', '\u0085'],
    ['the first C1 control (U+0080)', '\u0080'],
    ['the last C1 control (U+009F)', '\u009f'],
    ['LINE SEPARATOR (U+2028)', '\u2028'],
    ['PARAGRAPH SEPARATOR (U+2029)', '\u2029'],
    ['DEL', '\u007f'],
  ])('refuses %s in a value or a name, naming the header', (_, char) => {
    expect(headerRecordProblem({ 'X-Note': `a${char}b` }, 50, false)).toContain(
      'header "X-Note" has an invalid value',
    );
    expect(headerRecordProblem({ 'X-Note': `a${char}b` }, 50, true)).toContain('"X-Note"');
    expect(headerRecordProblem({ [`X-${char}Note`]: 'v' }, 50, false)).toContain(
      `has an invalid header name "X-${char}Note"`,
    );
  });

  it('keeps accepting Latin-1 text above the C1 range', () => {
    expect(headerRecordProblem({ 'X-City': 'S\u00e3o Paulo \u00a0\u00ff' }, 50, false)).toBeNull();
  });

  it('limits the number of headers', () => {
    const many = Object.fromEntries(Array.from({ length: 3 }, (_, i) => [`X-${i}`, 'v']));
    expect(headerRecordProblem(many, 2, false)).toBe('must have at most 2 headers');
  });
});
