import type { BuiltToolRequest, CheckedCase, TestCaseExpect } from './rollout.types';

/** Each expectation of the case that the played call does not meet, in words. */
export function unmetExpectations(expect: TestCaseExpect, result: CheckedCase['result']): string[] {
  const failures: string[] = [];
  const prompt = result.prompt ?? '';
  if (expect.status && result.status !== expect.status)
    failures.push(
      `expect.status: the lookup ended "${result.status}", not "${expect.status}"${result.error ? ` (${result.error})` : ''}`,
    );
  for (const text of expect.prompt_contains ?? [])
    if (!prompt.includes(text))
      failures.push(`expect.prompt_contains: the prompt does not contain "${text}"`);
  for (const text of expect.prompt_not_contains ?? [])
    if (prompt.includes(text))
      failures.push(`expect.prompt_not_contains: the prompt contains "${text}"`);
  if (expect.missing) {
    const allowed = new Set(expect.missing);
    for (const name of result.missing)
      if (!allowed.has(name)) failures.push(`expect.missing: {{${name}}} rendered empty`);
  }
  for (const wanted of expect.tool_requests ?? []) {
    const match = result.tool_requests.some((request) => meets(request, wanted));
    if (!match)
      failures.push(
        `expect.tool_requests: no request of tool "${wanted.tool_name}"${wanted.url_contains ? ` to a URL containing "${wanted.url_contains}"` : ''}${wanted.body_contains ? ` with a body containing "${wanted.body_contains}"` : ''}`,
      );
  }
  return failures;
}

function meets(
  request: BuiltToolRequest,
  wanted: NonNullable<TestCaseExpect['tool_requests']>[number],
): boolean {
  return (
    request.tool_name === wanted.tool_name &&
    (!wanted.url_contains || request.url.includes(wanted.url_contains)) &&
    (!wanted.body_contains || JSON.stringify(request.body).includes(wanted.body_contains))
  );
}
