/**
 * Each table is read and written by its own module only: no source file names another module's
 * table, neither as a whole string (`.from('users', 'u')`, `getMetadata('users')`, a watched-table
 * list) nor after a SQL keyword inside one (`SELECT ... FROM users`, `JOIN`, `INTO`, `UPDATE`,
 * `TABLE`). A table's owner is the module whose `*.entity.ts` declares it (`@Entity('name')`);
 * another module reaches it through that module's exported service or repository (which may export
 * the name, from the entity, for a module that only watches the table for writes). Comments and
 * string types are not read. Migrations, their steps, the files directly in src (the wiring) and
 * unit specs are left out.
 *
 *   npx ts-node --transpile-only scripts/check-table-names.ts [src dir]
 *
 * Exits 1 and prints each offending string with its file and line.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import * as ts from 'typescript';

/** Migrations and their steps, the wiring (files directly in src), and unit specs (their tables are fakes). */
const LEFT_OUT = [
  /^database\/migrations\//,
  /^database\/migration-steps\//,
  /^[^/]+$/,
  /\.spec\.ts$/,
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Table name → owning module (the first folder under src), from every `@Entity('name')`. */
export function tableOwners(src: string, files: string[]): Map<string, string> {
  const owners = new Map<string, string>();
  for (const file of files.filter((f) => f.endsWith('.entity.ts'))) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/@Entity\(\s*['"]([A-Za-z0-9_]+)['"]/g))
      owners.set(match[1], relative(src, file).split(sep)[0]);
  }
  return owners;
}

/** The text of every string and template literal of `file`, with its line. */
function literals(file: string): { text: string; line: number }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const found: { text: string; line: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isLiteralTypeNode(node)) return; // a type (`Pick<Row, 'tools'>`) names a field, not a table
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      found.push({ text: node.text, line: lineOf(source, node) });
    } else if (ts.isTemplateExpression(node)) {
      const parts = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)];
      found.push({ text: parts.join(' ? '), line: lineOf(source, node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function lineOf(source: ts.SourceFile, node: ts.Node): number {
  return source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
}

/** Whether `text` names `table`: the whole string, or after a SQL keyword in it. */
export function namesTable(text: string, table: string): boolean {
  if (text === table) return true;
  return new RegExp(`\\b(FROM|JOIN|INTO|UPDATE|TABLE)\\s+[\`"]?${table}\\b`, 'i').test(text);
}

function main(): void {
  const src = resolve(process.argv[2] ?? join(__dirname, '..', 'src'));
  const files = sourceFiles(src);
  const owners = tableOwners(src, files);
  const violations: string[] = [];
  for (const file of files) {
    const path = relative(src, file).split(sep).join('/');
    if (LEFT_OUT.some((pattern) => pattern.test(path))) continue;
    const module = path.split('/')[0];
    for (const { text, line } of literals(file)) {
      for (const [table, owner] of owners) {
        if (owner !== module && namesTable(text, table))
          violations.push(`src/${path}:${line}: '${table}' (owned by ${owner})`);
      }
    }
  }
  if (violations.length) {
    console.error(
      "Another module's table named (go through the owner module's service or repository):",
    );
    for (const violation of violations) console.error(`  ${violation}`);
    process.exit(1);
  }
  console.log(`table names: ${owners.size} tables, each named only by its own module`);
}

if (require.main === module) main();
