/**
 * The routes of scripts/route-files.ts: each handler method of a `*.controller.ts` (its HTTP method
 * and path from the decorators) with the files it names, and each queue processor
 * (`jobs/*.job.ts`, the whole file).
 */
import { relative } from 'node:path';
import * as ts from 'typescript';
import type { Graph } from './graph';

export interface Handler {
  label: string;
  file: string;
  /** Where the route starts: the files its handler names besides its own (a processor: its file). */
  roots: string[];
  http: boolean;
}

const VERBS = new Set(['Get', 'Post', 'Patch', 'Put', 'Delete']);

function decoratorCall(node: ts.Node): ts.CallExpression[] {
  return (ts.canHaveDecorators(node) ? (ts.getDecorators(node) ?? []) : [])
    .map((d) => d.expression)
    .filter(ts.isCallExpression);
}

function firstString(call: ts.CallExpression): string {
  const arg = call.arguments[0];
  return arg && ts.isStringLiteralLike(arg) ? arg.text : '';
}

function joinPath(prefix: string, path: string): string {
  return `/${[prefix, path].filter(Boolean).join('/')}`.replace(/\/+/g, '/');
}

/** Every identifier in `node` that the file imports, and the type of every `this.<field>` used. */
function namedFiles(node: ts.Node, names: Map<string, string>, fields: Map<string, string>): string[] {
  const files = new Set<string>();
  const visit = (n: ts.Node): void => {
    if (ts.isIdentifier(n) && names.has(n.text)) files.add(names.get(n.text) as string);
    if (ts.isPropertyAccessExpression(n) && n.expression.kind === ts.SyntaxKind.ThisKeyword) {
      const target = fields.get(n.name.text);
      if (target) files.add(target);
    }
    n.forEachChild(visit);
  };
  visit(node);
  return [...files];
}

/** Constructor parameter properties: field name → the file of its type. */
function injectedFields(cls: ts.ClassDeclaration, names: Map<string, string>): Map<string, string> {
  const fields = new Map<string, string>();
  const ctor = cls.members.find(ts.isConstructorDeclaration);
  for (const param of ctor?.parameters ?? []) {
    if (!param.type || !ts.isTypeReferenceNode(param.type)) continue;
    const target = names.get(param.type.typeName.getText());
    if (target) fields.set(param.name.getText(), target);
  }
  return fields;
}

function controllerRoutes(file: string, source: ts.SourceFile, graph: Graph): Handler[] {
  const names = graph.importsByName.get(file) ?? new Map<string, string>();
  const handlers: Handler[] = [];
  for (const cls of source.statements.filter(ts.isClassDeclaration)) {
    const controller = decoratorCall(cls).find((c) => c.expression.getText() === 'Controller');
    if (!controller) continue;
    const prefix = firstString(controller);
    const fields = injectedFields(cls, names);
    const shared = decoratorCall(cls).flatMap((c) => namedFiles(c, names, fields));
    for (const method of cls.members.filter(ts.isMethodDeclaration)) {
      const verb = decoratorCall(method).find((c) => VERBS.has(c.expression.getText()));
      if (!verb) continue;
      const label = `\`${verb.expression.getText().toUpperCase()} ${joinPath(prefix, firstString(verb))}\``;
      const roots = [...shared, ...namedFiles(method, names, fields)];
      handlers.push({ label, file, roots, http: true });
    }
  }
  return handlers;
}

export function routeHandlers(src: string, graph: Graph): Handler[] {
  const http: Handler[] = [];
  const jobs: Handler[] = [];
  for (const [file, source] of graph.files) {
    const path = relative(src, file);
    if (path.endsWith('.controller.ts')) http.push(...controllerRoutes(file, source, graph));
    if (/(^|\/)jobs\/[^/]+\.job\.ts$/.test(path)) {
      const name = path.replace(/^.*\/([^/]+)\.job\.ts$/, '$1');
      jobs.push({ label: `queue processor \`${name}\``, file, roots: [file], http: false });
    }
  }
  const byLabel = (a: Handler, b: Handler): number => a.label.localeCompare(b.label);
  return [...http.sort(byLabel), ...jobs.sort(byLabel)];
}
