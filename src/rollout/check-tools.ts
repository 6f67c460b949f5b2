import { MASK, maskHeaders } from '../common/secrets/masking';
import { referencedNames, substituteReferences } from '../common/secrets/secret-reference';
import { maskUrl } from '../common/secrets/url-masking';
import type { RequestTemplate, ResolvedRequest } from '../secret/secret-reference-checks';
import { validateToolArguments } from '../tool/tool-arguments';
import { callContextHeaders } from '../tool/tool-call-request';
import type { ToolFields } from '../tool/tool.types';
import type { BuiltToolRequest, TestCaseToolMocks } from './rollout.types';

/** A tool of the checked version, as a tool-call job would run it. */
export type CheckedTool = ToolFields & { tool_id: string };

/** Resolves a request's `{{secret.NAME}}` references as the tool-call job does (`SecretReferences.resolveRequest`). */
export type ResolveRequest = (request: RequestTemplate) => Promise<ResolvedRequest>;

export interface BuiltToolRequests {
  requests: BuiltToolRequest[];
  failures: string[];
}

/**
 * The request each tool mock would make, built as a tool-call job builds it (its arguments checked
 * against the tool's parameters, the call's context headers, the secrets resolved and allowed for
 * the URL's origin) and never sent. What is shown is masked: secrets as `****`, sensitive headers
 * and URL parts as the reads show them. A mock naming a tool the version does not hold fails the case.
 */
export async function buildToolRequests(
  mocks: TestCaseToolMocks | null,
  tools: readonly CheckedTool[],
  call: { room_name: string; assistant_id: string; versionLabel: string },
  resolve: ResolveRequest,
): Promise<BuiltToolRequests> {
  const built: BuiltToolRequests = { requests: [], failures: [] };
  for (const [name, mock] of Object.entries(mocks ?? {})) {
    const tool = tools.find((t) => t.tool_name === name);
    if (!tool) {
      built.failures.push(`tool_mocks.${name}: ${call.versionLabel} has no tool named "${name}"`);
      continue;
    }
    const check = validateToolArguments(tool.tool_parameters, mock.arguments);
    if (!check.ok) {
      built.failures.push(`tool_mocks.${name}: ${check.error}`);
      continue;
    }
    if (tool.tool_execution_type !== 'webhook') continue;
    const { url, headers } = tool.tool_execution_config;
    if (!url) {
      built.failures.push(`tool_mocks.${name}: the tool has no webhook URL`);
      continue;
    }
    const callHeaders = callContextHeaders(call);
    const resolved = await resolve({ url, headers, callHeaders });
    if (!resolved.ok) {
      built.failures.push(`tool_mocks.${name}: the request could not be built: ${resolved.error}`);
      continue;
    }
    built.requests.push({
      tool_name: name,
      method: 'POST',
      url: shownUrl(url),
      headers: { ...shownHeaders(headers ?? {}, callHeaders), 'Content-Type': 'application/json' },
      body: check.arguments,
    });
  }
  return built;
}

/** The URL with its references resolved to `****`, and anything else sensitive masked. */
function shownUrl(template: string): string {
  const names = new Map(referencedNames(template).map((name) => [name, MASK]));
  return maskUrl(substituteReferences(template, names, 'url'));
}

/** The configured headers as sent, a header carrying a secret as `****`; the call's own headers replace any of the same name. */
function shownHeaders(
  configured: Record<string, string>,
  callHeaders: Record<string, string>,
): Record<string, string> {
  const replaced = new Set(Object.keys(callHeaders).map((name) => name.toLowerCase()));
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(configured))
    if (!replaced.has(name.toLowerCase()))
      kept[name] = referencedNames(value).length ? MASK : value;
  return { ...maskHeaders(kept), ...callHeaders };
}
