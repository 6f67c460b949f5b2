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

  it('limits the number of headers', () => {
    const many = Object.fromEntries(Array.from({ length: 3 }, (_, i) => [`X-${i}`, 'v']));
    expect(headerRecordProblem(many, 2, false)).toBe('must have at most 2 headers');
  });
});
