import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { load } from 'js-yaml';
import { runBundleCommand, type BundleCommand } from '../../../src/config-bundle/bundle-cli';
import { staticToolBody } from '../../fixtures/tool';
import { appSuite } from '../../utils/create-test-app';

const run = promisify(execFile);

describe('npm run cli -- export | plan | apply (e2e)', () => {
  const suite = appSuite({ users: ['alice'] });
  const dir = mkdtempSync(join(tmpdir(), 'bundle-cli-'));
  const keyFile = join(dir, 'key');
  let url: string;

  /** One command in this process, against the app listening on a port; its exit code and output. */
  const cli = async (command: BundleCommand, ...args: string[]) => {
    let out = '';
    let err = '';
    const code = await runBundleCommand(command, ['--url', url, '--key', keyFile, ...args], {
      out: (text) => (out += text),
      err: (text) => (err += text),
    });
    return { code, out, err };
  };
  const file = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };

  beforeAll(async () => {
    await suite.ctx.app.listen(0, '127.0.0.1');
    const { port } = suite.ctx.app.getHttpServer().address() as AddressInfo;
    url = `http://127.0.0.1:${port}`;
    writeFileSync(keyFile, `${suite.alice.apiKey}\n`);
    await suite.ctx
      .http()
      .post('/tool/create')
      .set(suite.alice.auth)
      .send(staticToolBody('opening_hours', '9-5'))
      .expect(200);
  });

  it('exports YAML, plans an edit of it readably, applies it, then plans nothing', async () => {
    const exported = await cli('export');
    expect(exported.code).toBe(0);
    const bundle = load(exported.out) as { tools: Record<string, Record<string, unknown>> };
    expect(Object.keys(bundle.tools)).toEqual(['opening_hours']);
    const edited = exported.out
      .replace('tool_description: Returns a fixed value.', 'tool_description: Opening hours')
      .replace(
        /^tools:\n/m,
        'tools:\n  greeting:\n    tool_description: Says hello\n    tool_execution_type: static_return\n    tool_execution_config:\n      value: hi\n',
      );
    const bundleFile = file('bundle.yaml', edited);
    const planned = await cli('plan', bundleFile);
    expect(planned).toMatchObject({ code: 0, err: '' });
    expect(planned.out).toContain('1 to create, 1 to update, 0 to delete');
    expect(planned.out).toContain(
      '  + tools[greeting]: tool_description, tool_execution_config, tool_execution_type',
    );
    expect(planned.out).toContain('  ~ tools[opening_hours]: tool_description');
    const applied = await cli('apply', bundleFile);
    expect(applied.code).toBe(0);
    expect(applied.out).toMatch(/Applied 2 change\(s\); revision \S+/);
    expect((await cli('plan', bundleFile)).out).toMatch(/^No changes \(revision \S+\)\.\n$/);
  });

  it('prints the service’s refusal field by field, and refuses a YAML file with anchors unsent', async () => {
    const bad = file('bad.json', JSON.stringify({ tools: { broken: { tool_description: '' } } }));
    const refused = await cli('plan', bad);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('HTTP 400');
    expect(refused.err).toContain('bundle.tools[broken].tool_description');
    const bomb = file('bomb.yaml', 'tools: &a {}\nstrategies: *a\n');
    const unsent = await cli('apply', bomb);
    expect(unsent.code).toBe(2);
    expect(unsent.err).toContain('anchors and aliases are not accepted');
  });

  it('runs as npm run cli would, with the key given as a file', async () => {
    const { stdout } = await run(
      process.execPath,
      [
        '-r',
        'ts-node/register/transpile-only',
        'src/cli.ts',
        'plan',
        '--url',
        url,
        '--key',
        keyFile,
        file('empty.json', '{}'),
      ],
      { cwd: join(__dirname, '../../..') },
    );
    expect(stdout).toMatch(/^No changes \(revision \S+\)\.\n$/);
  });
});
