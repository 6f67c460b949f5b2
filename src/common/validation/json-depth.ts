/**
 * How many containers (objects, arrays) deep `value` nests: 0 for a scalar, 1 for `{}` or `[1]`,
 * 2 for `{"a": []}`. Stops counting once past `max`, so a hostile value costs no more than a walk
 * to that depth. Iterative: a value nested thousands of levels does not overflow the stack.
 */
export function jsonDepth(value: unknown, max = Infinity): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [node, above] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    const depth = above + 1;
    if (depth > deepest) deepest = depth;
    if (depth > max) return depth;
    for (const child of Array.isArray(node) ? node : Object.values(node))
      stack.push([child, depth]);
  }
  return deepest;
}
