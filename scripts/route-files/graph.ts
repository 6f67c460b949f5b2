/**
 * The run-time import graph of src for scripts/route-files.ts: one node per source file (specs and
 * test helpers left out), an edge per import that runs (`import type` and imports whose every
 * name is type-only are left out; `export … from` and `import('…')` count), and the hidden edges
 * described there (hook → registrant, transaction → entity subscribers).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import * as ts from 'typescript';

export interface Graph {
  files: Map<string, ts.SourceFile>;
  edges: Map<string, Set<string>>;
  /** Per file: each imported name (runtime or type-only) → the file it comes from. */
  importsByName: Map<string, Map<string, string>>;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'testing' ? [] : sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') && !name.endsWith('.d.ts')
      ? [path]
      : [];
  });
}

function resolveImport(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(from), spec);
  return [`${base}.ts`, join(base, 'index.ts')].find((path) => existsSync(path));
}

function typeOnly(decl: ts.ImportDeclaration): boolean {
  const clause = decl.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  if (clause.name || !named || !ts.isNamedImports(named)) return false;
  return named.elements.length > 0 && named.elements.every((element) => element.isTypeOnly);
}

function importedNames(decl: ts.ImportDeclaration): string[] {
  const clause = decl.importClause;
  if (!clause) return [];
  const named = clause.namedBindings;
  const names = clause.name ? [clause.name.text] : [];
  if (named && ts.isNamedImports(named)) names.push(...named.elements.map((e) => e.name.text));
  if (named && ts.isNamespaceImport(named)) names.push(named.name.text);
  return names;
}

function scan(graph: Graph, file: string, source: ts.SourceFile): void {
  const edges = new Set<string>();
  const names = new Map<string, string>();
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const target = resolveImport(file, node.moduleSpecifier.text);
      if (target) {
        if (!typeOnly(node)) edges.add(target);
        for (const name of importedNames(node)) names.set(name, target);
      }
    } else if (
      ts.isExportDeclaration(node) &&
      !node.isTypeOnly &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const target = resolveImport(file, node.moduleSpecifier.text);
      if (target) edges.add(target);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      const target = resolveImport(file, node.arguments[0].text);
      if (target) edges.add(target);
    }
    node.forEachChild(visit);
  };
  visit(source);
  graph.edges.set(file, edges);
  graph.importsByName.set(file, names);
}

/** `this.<field>.register(` or `<param>.register(` where the field's or parameter's type is imported. */
function hookTargets(graph: Graph, file: string, source: ts.SourceFile): string[] {
  const types = new Map<string, string>();
  const names = graph.importsByName.get(file) ?? new Map<string, string>();
  const hooks: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isParameter(node) && node.type && ts.isTypeReferenceNode(node.type)) {
      const target = names.get(node.type.typeName.getText(source));
      if (target) types.set(node.name.getText(source), target);
    }
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'register'
    ) {
      const owner = node.expression.expression.getText(source).replace(/^this\./, '');
      const target = types.get(owner);
      if (target) hooks.push(target);
    }
    node.forEachChild(visit);
  };
  visit(source);
  return hooks;
}

export function importGraph(src: string): Graph {
  const graph: Graph = { files: new Map(), edges: new Map(), importsByName: new Map() };
  for (const file of sourceFiles(src)) {
    const text = readFileSync(file, 'utf8');
    graph.files.set(file, ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true));
  }
  for (const [file, source] of graph.files) scan(graph, file, source);
  const transaction = resolve(src, 'database/transaction.ts');
  for (const [file, source] of graph.files) {
    for (const hook of hookTargets(graph, file, source)) graph.edges.get(hook)?.add(file);
    if (/@EventSubscriber\(/.test(source.text)) graph.edges.get(transaction)?.add(file);
  }
  return graph;
}
