/** The call a test case plays: the values a lookup job would carry. */
export interface TestCaseCall {
  caller_number?: string;
  inbound_number?: string;
  room_name?: string;
  /** Extra `{{call.<name>}}` values (e.g. `call_type`), over the ones the call derives. */
  variables?: Record<string, string>;
}

/** The strategy's answer as the test case plays it: `body` is the endpoint's whole JSON answer. */
export interface TestCaseContextMock {
  status: number;
  body: unknown;
  latency_ms?: number;
}

/** The arguments a model would pass each tool, by tool name. */
export type TestCaseToolMocks = Record<string, { arguments: Record<string, unknown> }>;

export interface ExpectedToolRequest {
  tool_name: string;
  url_contains?: string;
  body_contains?: string;
}

export interface TestCaseExpect {
  status?: 'success' | 'error';
  prompt_contains?: string[];
  prompt_not_contains?: string[];
  /** The placeholders allowed to render empty; any other missing one fails the case. */
  missing?: string[];
  tool_requests?: ExpectedToolRequest[];
}

/** A tool request as a check builds it (never sent): URL resolved, secrets and sensitive headers masked. */
export interface BuiltToolRequest {
  tool_name: string;
  method: 'POST';
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** What one test case came to in a check. */
export interface CheckedCase {
  test_case_id: string;
  name: string;
  passed: boolean;
  failures: string[];
  result: {
    status: 'success' | 'error' | 'skipped';
    fallback_used: boolean;
    error: string | null;
    prompt: string | null;
    start_instruction: string | null;
    missing: string[];
    tool_requests: BuiltToolRequest[];
  };
}
