/**
 * The ids request examples show where a body must name something of yours (an assistant to
 * assign, tools to attach). No fresh flow has them: replace them with the ids your own create
 * calls answered (the browser test and the contract tests do exactly that).
 */
/** Plainly a placeholder: no install has it; the operation's description names the route that makes one. */
export const EXAMPLE_ASSISTANT_ID = '00000000-0000-4000-8000-000000000000';
export const EXAMPLE_TOOL_ID = '0b6f1c7e-3f7a-4d3b-9a51-5f0c6d2e8a11';
