/**
 * Test helper: tokenizes text with the real TextMate engine VS Code uses (vscode-textmate on
 * vscode-oniguruma's WebAssembly build) and the extension's grammar file, so the grammar tests see
 * exactly the tokens an editor would colour.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as oniguruma from 'vscode-oniguruma';
import * as textmate from 'vscode-textmate';
import { CORPUS_HLO_DIR } from '../support/corpus';

const ROOT = path.resolve(__dirname, '..', '..');
/** The grammar file under test, as package.json contributes it. */
export const GRAMMAR_PATH = path.join(ROOT, 'syntaxes', 'hlo.tmLanguage.json');
const WASM_PATH = path.join(ROOT, 'node_modules', 'vscode-oniguruma', 'release', 'onig.wasm');

/** One token: its text, its UTF-16 column range on the line, and its scopes from outermost to innermost. */
export interface Token {
  readonly text: string;
  readonly start: number;
  readonly end: number;
  readonly scopes: readonly string[];
}

/** The tokens of one line, with the line's text for look-ups by substring. */
export interface TokenizedLine {
  readonly text: string;
  readonly tokens: readonly Token[];
  /** Depth of the rule stack after the line; 1 means every construct opened so far is closed. */
  readonly depthAfter: number;
}

let grammarPromise: Promise<textmate.IGrammar> | undefined;

async function loadGrammar(): Promise<textmate.IGrammar> {
  const wasm = fs.readFileSync(WASM_PATH);
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s: string) => new oniguruma.OnigString(s),
    }),
    loadGrammar: (scopeName: string) =>
      Promise.resolve(
        scopeName === 'source.hlo'
          ? textmate.parseRawGrammar(fs.readFileSync(GRAMMAR_PATH, 'utf8'), GRAMMAR_PATH)
          : null,
      ),
  });
  const grammar = await registry.loadGrammar('source.hlo');
  if (!grammar) throw new Error(`could not load ${GRAMMAR_PATH}`);
  return grammar;
}

/** Loads the HLO grammar once per test process (the WebAssembly module can only be loaded once). */
export function hloGrammar(): Promise<textmate.IGrammar> {
  grammarPromise ??= loadGrammar();
  return grammarPromise;
}

/**
 * Tokenizes a whole document line by line, carrying the rule stack across lines as VS Code does.
 * Lines are split on `\n` (a trailing `\r` is dropped, as the editor does).
 */
export async function tokenize(text: string): Promise<TokenizedLine[]> {
  const grammar = await hloGrammar();
  let stack = textmate.INITIAL;
  return text.split('\n').map((raw) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const result = grammar.tokenizeLine(line, stack);
    stack = result.ruleStack;
    const tokens = result.tokens.map((t) => ({
      text: line.slice(t.startIndex, Math.min(t.endIndex, line.length)),
      start: t.startIndex,
      end: Math.min(t.endIndex, line.length),
      scopes: t.scopes,
    }));
    return { text: line, tokens, depthAfter: stack.depth };
  });
}

/**
 * The token covering the first character of the `occurrence`-th (0-based) appearance of `needle`
 * on `line`. Throws when the text is absent, so a typo in a test fails loudly.
 */
export function tokenAt(line: TokenizedLine, needle: string, occurrence = 0): Token {
  let at = -1;
  for (let i = 0; i <= occurrence; i++) {
    at = line.text.indexOf(needle, at + 1);
    if (at < 0)
      throw new Error(`"${needle}" (occurrence ${occurrence}) not on line: ${line.text.slice(0, 200)}`);
  }
  const token = line.tokens.find((t) => t.start <= at && at < t.end);
  if (!token) throw new Error(`no token at column ${at} of line: ${line.text.slice(0, 200)}`);
  return token;
}

/** The innermost scope of a token, the one themes are most likely to colour. */
export function innermost(token: Token): string {
  return token.scopes[token.scopes.length - 1] ?? '';
}

/**
 * Asserts that the `occurrence`-th (0-based) token whose whole text is `text` exists on `line` and
 * that its full scope list (after `source.hlo`) is `scopes`, outermost first.
 */
export function expectToken(
  line: TokenizedLine,
  text: string,
  scopes: readonly string[],
  occurrence = 0,
): void {
  const token = line.tokens.filter((t) => t.text === text)[occurrence];
  assert.ok(
    token,
    `no token "${text}" (occurrence ${occurrence}) on line: ${line.text.slice(0, 200)}\ntokens: ${line.tokens
      .map((t) => t.text)
      .join(' | ')
      .slice(0, 600)}`,
  );
  assert.deepEqual(token.scopes, ['source.hlo', ...scopes], `scopes of "${text}" (occurrence ${occurrence})`);
}

/** Asserts the innermost scope of the token covering the start of `needle`. */
export function expectInnermost(line: TokenizedLine, needle: string, scope: string, occurrence = 0): void {
  assert.equal(
    innermost(tokenAt(line, needle, occurrence)),
    scope,
    `innermost scope of "${needle}" (occurrence ${occurrence})`,
  );
}

/** The `occurrence`-th (0-based) line containing `text`; throws when there is none. */
export function lineWith(lines: readonly TokenizedLine[], text: string, occurrence = 0): TokenizedLine {
  const line = lines.filter((l) => l.text.includes(text))[occurrence];
  if (!line) throw new Error(`no line contains "${text}" (occurrence ${occurrence})`);
  return line;
}

/** Reads a corpus HLO file from shared/corpus/hlo. */
export function corpusFile(name: string): string {
  return fs.readFileSync(path.join(CORPUS_DIR, name), 'utf8');
}

/** Folder with the real HLO files the grammar must handle. */
export const CORPUS_DIR = CORPUS_HLO_DIR;
