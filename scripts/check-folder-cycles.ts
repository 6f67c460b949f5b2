/**
 * The folders of src must form a stack: draw each top-level folder as one node (each file directly
 * in src, the wiring's entry points and registries, as a node of its own) and an arrow for every
 * import between them, and the drawing has no cycle. Every import counts: `import type`, `export ... from`, `import()` in types or code, and
 * `require`; spec files too. Lint forbids each back edge it knows of; this check needs no list of
 * floors, so a folder nobody placed yet cannot close a loop unseen.
 *
 *   npx ts-node --transpile-only scripts/check-folder-cycles.ts [src dir]
 *
 * Exits 1 and prints one cycle, with one import that makes each of its arrows.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import * as ts from 'typescript';

/** One arrow of the folder graph, with the first import found that draws it. */
export interface FolderEdge {
  from: string;
  to: string;
  file: string;
  specifier: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The folder of src a path lies in (a file directly in src is its own node), or null outside src. */
function folderOf(srcDir: string, path: string): string | null {
  const rel = relative(srcDir, path);
  if (rel.startsWith('..') || rel === '') return null;
  const parts = rel.split(sep);
  if (parts.length > 1 || isFolder(path)) return parts[0];
  return parts[0].replace(/(\.ts)?$/, '.ts');
}

/** Every arrow between two folders of `srcDir`, once per (from, to). */
export function folderEdges(srcDir: string): FolderEdge[] {
  const root = resolve(srcDir);
  const project = dirname(root);
  const edges = new Map<string, FolderEdge>();
  for (const file of sourceFiles(root)) {
    const from = folderOf(root, file);
    const imports = ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles;
    for (const { fileName: specifier } of imports) {
      const target = specifier.startsWith('.')
        ? resolve(dirname(file), specifier)
        : specifier.startsWith('src/')
          ? resolve(project, specifier)
          : null;
      const to = target && folderOf(root, target);
      if (!from || !to || to === from || edges.has(`${from}>${to}`)) continue;
      edges.set(`${from}>${to}`, { from, to, file: relative(project, file), specifier });
    }
  }
  return [...edges.values()];
}

/** One cycle of the graph as its arrows in order, or null when the folders form a stack. */
export function findCycle(edges: FolderEdge[]): FolderEdge[] | null {
  const out = new Map<string, FolderEdge[]>();
  for (const edge of edges) out.set(edge.from, [...(out.get(edge.from) ?? []), edge]);
  const state = new Map<string, 'open' | 'done'>();
  const path: FolderEdge[] = [];
  const visit = (node: string): FolderEdge[] | null => {
    state.set(node, 'open');
    for (const edge of out.get(node) ?? []) {
      if (state.get(edge.to) === 'open') {
        const start = path.findIndex((step) => step.from === edge.to);
        return [...path.slice(start < 0 ? path.length : start), edge];
      }
      if (state.has(edge.to)) continue;
      path.push(edge);
      const cycle = visit(edge.to);
      if (cycle) return cycle;
      path.pop();
    }
    state.set(node, 'done');
    return null;
  };
  for (const node of [...out.keys()].sort()) {
    if (state.has(node)) continue;
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}

if (require.main === module) {
  const srcDir = process.argv[2] ?? join(__dirname, '..', 'src');
  const edges = folderEdges(srcDir);
  const cycle = findCycle(edges);
  if (cycle) {
    console.error(
      `The folders of src form a cycle: ${[...cycle.map((e) => e.from), cycle[0].from].join(' -> ')}`,
    );
    for (const edge of cycle)
      console.error(`  ${edge.from} -> ${edge.to}: ${edge.file} imports '${edge.specifier}'`);
    process.exit(1);
  }
  const folders = new Set(edges.flatMap((edge) => [edge.from, edge.to]));
  console.log(`folder graph of src: ${folders.size} nodes, ${edges.length} arrows, no cycle`);
}
