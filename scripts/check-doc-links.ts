/**
 * Checks every relative link of README.md and docs/*.md: the file (or folder) it names exists, and
 * an anchor (`#section`, `file.md#section`) names a heading of that Markdown file, slugged as
 * GitHub does. Links in fenced code blocks and inline code are not links. Exits 1 naming each
 * broken link with its file and line (CI runs it: `npm run docs:links`).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');

/** GitHub's heading anchor: lower case, markup and punctuation dropped, spaces to dashes. */
export function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The lines outside fenced code blocks (fenced ones blank, so line numbers are kept). */
function outsideFences(text: string): string[] {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line;
  });
}

/** Prose: outside fences, with inline code blanked. */
function proseLines(text: string): string[] {
  return outsideFences(text).map((line) => line.replace(/`[^`]*`/g, (code) => ' '.repeat(code.length)));
}

export function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of outsideFences(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

export function brokenLinks(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const problems: string[] = [];
  proseLines(text).forEach((line, index) => {
    for (const match of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const [path, anchor] = target.split('#', 2) as [string, string | undefined];
      const where = `${relative(ROOT, file)}:${index + 1}`;
      const resolved = path ? resolve(dirname(file), decodeURIComponent(path)) : file;
      if (!existsSync(resolved)) {
        problems.push(`${where}: ${target}: no such file`);
        continue;
      }
      if (anchor === undefined) continue;
      if (statSync(resolved).isDirectory() || !resolved.endsWith('.md')) {
        problems.push(`${where}: ${target}: an anchor on a file that is not Markdown`);
      } else if (!anchorsOf(readFileSync(resolved, 'utf8')).has(anchor)) {
        problems.push(`${where}: ${target}: no heading with that anchor`);
      }
    }
  });
  return problems;
}

export function docFiles(): string[] {
  const docs = join(ROOT, 'docs');
  const pages = existsSync(docs)
    ? readdirSync(docs)
        .filter((name) => name.endsWith('.md'))
        .map((name) => join(docs, name))
    : [];
  return [join(ROOT, 'README.md'), ...pages];
}

if (require.main === module) {
  const files = docFiles();
  const problems = files.flatMap(brokenLinks);
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) process.exit(1);
  console.log(`links checked: ${files.map((f) => relative(ROOT, f)).join(', ')}`);
}
