// Lists the exports of core/, protocol/, server/, client/, webview/ and cli/ that no other file
// imports (tests and benchmarks count as importers), that are not core's public API (its index),
// and that no other export of their file names in its signature: each should lose its `export`,
// or go if nothing uses it at all. Run: node scripts/unused-exports.mjs (about a minute).
import ts from 'typescript';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = process.cwd();
const LAYERS = ['core', 'protocol', 'server', 'client', 'webview', 'cli'];

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name.startsWith('.')) return [];
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const all = [...LAYERS.map((l) => join(ROOT, l, 'src')), join(ROOT, 'test'), join(ROOT, 'bench')].flatMap(
  files,
);
const options = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  resolveJsonModule: true,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  types: ['node', 'mocha'],
};
const host = {
  getScriptFileNames: () => all,
  getScriptVersion: () => '1',
  getScriptSnapshot: (f) =>
    ts.sys.fileExists(f) ? ts.ScriptSnapshot.fromString(ts.sys.readFile(f)) : undefined,
  getCurrentDirectory: () => ROOT,
  getCompilationSettings: () => options,
  getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
  fileExists: ts.sys.fileExists,
  readFile: ts.sys.readFile,
  readDirectory: ts.sys.readDirectory,
};
const service = ts.createLanguageService(host);
const program = service.getProgram();
const checker = program.getTypeChecker();
const indexFile = (f) => /\/index\.ts$/.test(f);

const resolve = (s) => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s);
const coreIndex = checker.getSymbolAtLocation(program.getSourceFile(join(ROOT, 'core', 'src', 'index.ts')));
const publicApi = new Set(checker.getExportsOfModule(coreIndex).map(resolve));
/** Entry points the bundler and VS Code call. */
const ENTRY = new Set(['activate', 'deactivate']);

const isExported = (node) =>
  ts.canHaveModifiers(node) &&
  (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** Whether the reference at `pos` of `source` is in the signature (not the body) of another export. */
function inExportedSignature(source, pos, own) {
  let node = ts.getTokenAtPosition(source, pos);
  for (; node && node.parent; node = node.parent) {
    if (ts.isBlock(node) || (ts.isVariableDeclaration(node.parent) && node.parent.initializer === node))
      return false;
    if (ts.isPropertyDeclaration(node.parent) && node.parent.initializer === node) return false;
    if (node.parent.kind === ts.SyntaxKind.SourceFile) return node !== own && isExported(node);
  }
  return false;
}

const report = [];
for (const file of all.filter(
  (f) => LAYERS.some((l) => f.startsWith(join(ROOT, l, 'src'))) && !indexFile(f),
)) {
  const source = program.getSourceFile(file);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  if (!moduleSymbol) continue;
  for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
    const decl = symbol.declarations?.[0];
    if (!decl || decl.getSourceFile() !== source) continue; // a re-export
    if (publicApi.has(symbol) || ENTRY.has(symbol.getName())) continue;
    let own = decl;
    while (own.parent && own.parent.kind !== ts.SyntaxKind.SourceFile) own = own.parent;
    const name = ts.getNameOfDeclaration(decl) ?? decl;
    const refs = service.findReferences(file, name.getStart()) ?? [];
    const users = new Set();
    let inOwnFile = 0;
    for (const r of refs)
      for (const ref of r.references) {
        if (ref.isDefinition) continue;
        if (ref.fileName !== file) users.add(relative(ROOT, ref.fileName));
        else if (inExportedSignature(source, ref.textSpan.start, own)) users.add('its own API');
        else inOwnFile++;
      }
    if (users.size === 0)
      report.push(
        `${relative(ROOT, file)}: ${symbol.getName()} ${inOwnFile > 0 ? '(used in its own file only)' : '(unused)'}`,
      );
  }
}
if (report.length > 0) console.log(report.join('\n'));
console.log(`${report.length} exports no other file uses`);
process.exitCode = report.length > 0 ? 1 : 0;
