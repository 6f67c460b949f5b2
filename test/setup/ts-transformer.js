/**
 * Compiles the TypeScript Jest loads. A file with decorators (decorator metadata names the types
 * TypeScript resolves) and every DTO, entity and controller (the @nestjs/swagger plugin reads their
 * types) is emitted from one Program over the project, as `nest build` emits it; any other file is
 * transpiled alone, which emits the same code without resolving a type.
 *
 * ts-jest (isolatedModules: false) builds that Program in every worker before its first cache
 * lookup, and keys each module's cache entry on its whole import closure, resolved and stat-ed
 * again for every module every test file loads: one e2e file on a warm cache took 29 s of CPU
 * there, 10 s here. Here a cache key needs no Program, which is built only on a cache miss.
 * A Program file's key covers every project file, since its output depends on the types it imports.
 */
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');
const path = require('node:path');
const ts = require('typescript');
const hoistJest = require('ts-jest/dist/transformers/hoist-jest');
const swaggerTransformer = require('./swagger-transformer');

const rootDir = path.resolve(__dirname, '../..');
// The Swagger plugin's own choice of files (swagger-transformer.js) plus the controllers it reads.
const PLUGIN_FILE = /\.(dto|entity|controller)\.ts$/;
// A decorator call: `@Injectable()`, `@Column({...})`, `constructor(@Inject(TOKEN) ...`.
const DECORATOR = /(^|[\s(,])@[A-Za-z_$][\w$.]*\s*\(/m;

// The options ts-jest compiled with: the project's, emitting CommonJS and a separate source map.
function compilerOptions(parsed) {
  return {
    ...parsed.options,
    module: ts.ModuleKind.CommonJS,
    sourceMap: true,
    inlineSourceMap: false,
    inlineSources: false,
    declaration: false,
    noEmit: false,
    removeComments: false,
    incremental: false,
    composite: undefined,
    tsBuildInfoFile: undefined,
    outDir: path.join(rootDir, '.jest-ts-out'),
  };
}

const parsed = ts.getParsedCommandLineOfConfigFile(
  path.join(rootDir, 'tsconfig.json'),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  },
);
const options = compilerOptions(parsed);
const thisFile =
  readFileSync(__filename, 'utf8') + readFileSync(require.resolve('./swagger-transformer'), 'utf8');

function sha1(...parts) {
  const hash = createHash('sha1');
  for (const part of parts) hash.update(String(part)).update('\0');
  return hash.digest('hex');
}

const transformerKey = sha1(
  thisFile,
  ts.version,
  require('@nestjs/swagger/package.json').version,
  readFileSync(path.join(rootDir, 'tsconfig.json'), 'utf8'),
);

let project;
// Every file of the Program and the installed packages, read once per worker.
function projectState() {
  if (project) return project;
  const hash = createHash('sha1');
  let constEnum = false;
  for (const file of [...parsed.fileNames].sort()) {
    const text = readFileSync(file, 'utf8');
    constEnum ||= /\bconst\s+enum\b/.test(text);
    hash.update(file).update(text).update('\0');
  }
  hash.update(readFileSync(path.join(rootDir, 'package-lock.json')));
  project = { key: hash.digest('hex'), constEnum };
  return project;
}

// A file transpiled alone cannot inline another file's const enum: with one in the project, all
// files go through the Program.
function needsProgram(sourceText, sourcePath) {
  return PLUGIN_FILE.test(sourcePath) || DECORATOR.test(sourceText) || projectState().constEnum;
}

// ts-jest's own transformer that lifts `jest.mock()` calls above the imports, as ts-jest did.
const hoist = hoistJest.factory({
  configSet: { compilerModule: ts, logger: { child: () => ({ wrap: (_c, _m, fn) => fn }) } },
});

let program;
// The Program over the project's files (the test files among them are added only when one needs it).
function programFor(fileName) {
  const roots = program
    ? program.getRootFileNames()
    : parsed.fileNames.filter((f) => !isTestFile(f));
  if (program && program.getSourceFile(fileName)) return program;
  const rootNames = roots.includes(fileName) ? roots : [...roots, fileName];
  program = ts.createProgram({
    rootNames,
    options,
    projectReferences: parsed.projectReferences,
    oldProgram: program,
  });
  return program;
}

function isTestFile(fileName) {
  return /\.(spec|e2e-spec|faults-spec)\.ts$/.test(fileName);
}

function emitWithProgram(sourcePath) {
  const fileName = path.normalize(sourcePath);
  const current = programFor(fileName);
  const sourceFile = current.getSourceFile(fileName);
  const out = {};
  current.emit(
    sourceFile,
    (name, text) => {
      out[name.endsWith('.map') ? 'map' : 'code'] = text;
    },
    undefined,
    false,
    { before: [hoist, swaggerTransformer.factory({ program: current })] },
  );
  if (out.code === undefined) throw new Error(`TypeScript emitted nothing for ${sourcePath}`);
  return out;
}

function transpile(sourceText, sourcePath) {
  const result = ts.transpileModule(sourceText, {
    fileName: sourcePath,
    compilerOptions: options,
    transformers: { before: [hoist] },
  });
  return { code: result.outputText, map: result.sourceMapText };
}

module.exports = {
  getCacheKey(sourceText, sourcePath, transformOptions) {
    const mode = needsProgram(sourceText, sourcePath)
      ? `program:${projectState().key}`
      : 'transpile';
    const { configString, instrument } = transformOptions;
    return sha1(transformerKey, mode, configString, instrument, sourcePath, sourceText);
  },
  process(sourceText, sourcePath) {
    const out = needsProgram(sourceText, sourcePath)
      ? emitWithProgram(sourcePath)
      : transpile(sourceText, sourcePath);
    // Jest maps stack traces through the map it is given, not through a file the code names.
    return { code: out.code.replace(/\n\/\/# sourceMappingURL=.*$/, ''), map: out.map };
  },
};
