/**
 * The ids request examples show where a body must name something of yours (an assistant to
 * assign, tools to attach). No fresh flow has them: replace them with the ids your own create
 * calls answered (the browser test and the contract tests do exactly that).
 */
export const EXAMPLE_ASSISTANT_ID = '6f1d3c2a-8b4e-4c1f-9a7d-2e5b8c0f4a13';
export const EXAMPLE_TOOL_ID = '0b6f1c7e-3f7a-4d3b-9a51-5f0c6d2e8a11';
