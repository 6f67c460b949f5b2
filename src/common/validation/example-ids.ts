/**
 * The ids request examples show where a body must name something of yours (an assistant to
 * assign, tools to attach). No fresh flow has them: replace them with the ids your own create
 * calls answered (the browser test and the contract tests do exactly that).
 */
/** Plainly placeholders: no install has them; the operation's description names the route that makes one. */
export const EXAMPLE_ASSISTANT_ID = '00000000-0000-4000-8000-000000000000';
export const EXAMPLE_TOOL_ID = '00000000-0000-4000-8000-000000000001';
