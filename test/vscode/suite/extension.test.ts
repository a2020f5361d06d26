/**
 * The extension inside a real VS Code extension host, through public API only: activation,
 * contributed commands, and the language features as VS Code sees them through
 * `vscode.execute*Provider` commands.
 */
import { strict as assert } from 'node:assert';
import { rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { readConfig } from '../../../client/src/config';
import type { SourceLineResult } from '../../../client/src/source-instructions';
import {
  EXTENSION_ID,
  codeOf,
  fixture,
  waitFor,
  hoverText,
  positionOf,
  waitForDiagnostic,
  waitForNoDiagnostic,
} from './util';

const COMMAND_IDS = [
  'xlaLayout.openVisualizer',
  'xlaLayout.toggleVisualizerFollow',
  'xlaLayout.linearIndex',
  'xlaLayout.elementAtOffset',
  'xlaLayout.paddingReport',
  'xlaLayout.memoryView',
  'xlaLayout.checkFile',
  'xlaLayout.explainOom',
  'xlaLayout.restartServer',
  'xlaLayout.showOutput',
  'xlaLayout.hloForSourceLine',
  'xlaLayout.openSource',
  'xlaLayout.openRule',
];

interface PackageJson {
  contributes: { commands: { command: string; title: string; category: string }[] };
}

describe('XLA Layout Lens in the extension host', () => {
  let doc: vscode.TextDocument;

  before(async () => {
    doc = await vscode.workspace.openTextDocument(fixture('tiles.hlo'));
    await vscode.window.showTextDocument(doc);
  });

  it('opens .hlo files in the hlo language and activates', async () => {
    assert.equal(doc.languageId, 'hlo');
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is installed`);
    await ext.activate();
    assert.equal(ext.isActive, true);
  });

  it('registers exactly the commands package.json contributes', async () => {
    const pkg = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as PackageJson;
    const contributed = pkg.contributes.commands.map((c) => c.command).sort();
    assert.deepEqual(contributed, [...COMMAND_IDS].sort());
    for (const c of pkg.contributes.commands) assert.equal(c.category, 'XLA Layout', c.command);
    const registered = new Set(await vscode.commands.getCommands(true));
    for (const id of COMMAND_IDS) assert.ok(registered.has(id), `${id} is registered`);
  });

  it('reports the negative tile entry on exactly "-1"', async () => {
    const [d] = await waitForDiagnostic(doc.uri, 'tile-negative');
    assert.equal(doc.getText(d.range), '-1');
    assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(d.source, 'xla-layout');
  });

  it('hovers a padded shape with its logical and physical bytes', async () => {
    // f32[8,4] under T(8,128): 128 logical bytes, 8*128*4 = 4096 physical bytes, 32x.
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      doc.uri,
      positionOf(doc, 'f32[8,4]{1,0:T(8,128)} parameter', 2),
    );
    const text = hoverText(hovers);
    // 8×4 f32 = 128 bytes logical; T(8,128) stores 8×128 slots = 4,096 bytes: 32x. The answer comes first.
    assert.match(text, /^\*\*128 B → 4 KiB \(32x\)\*\* · dim 1 \(size 4\) pads to 128/, text);
  });

  it('offers a preferred quick fix that turns -1 into * and clears the error', async () => {
    const [d] = await waitForDiagnostic(doc.uri, 'tile-negative');
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      doc.uri,
      d.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    // executeCodeActionProvider does not hand back an action's `diagnostics`; identify the fix by its edit.
    const replacesMinusOne = (a: vscode.CodeAction): boolean =>
      a.edit !== undefined && a.edit.get(doc.uri).some((e) => e.newText === '*' && e.range.isEqual(d.range));
    const fix = actions.find(replacesMinusOne);
    assert.ok(fix, `a quick fix among ${JSON.stringify(actions.map((a) => a.title))}`);
    assert.equal(fix.isPreferred, true);
    assert.ok(await vscode.workspace.applyEdit(fix.edit!));
    assert.ok(doc.getText().includes('f32[8,256]{1,0:T(*,128)}'), doc.getText());
    await waitForNoDiagnostic(doc.uri, 'tile-negative');
    // Leave the fixture on disk untouched for the next run.
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('reports a misspelt operand as XLA does and offers the name spelt like it, not as the preferred fix', async () => {
    const names = await vscode.workspace.openTextDocument(fixture('names.hlo'));
    await vscode.window.showTextDocument(names);
    const [d] = await waitForDiagnostic(names.uri, 'instruction-undefined');
    assert.equal(names.getText(d.range), 'inptu');
    assert.equal(
      d.message,
      '`%inptu` is not defined in this computation; did you mean `%input`? — XLA: instruction does not exist: inptu',
    );
    assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      names.uri,
      d.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    const fix = actions.find((a) => a.title === 'Change to %input');
    assert.ok(fix, `a quick fix among ${JSON.stringify(actions.map((a) => a.title))}`);
    assert.notEqual(fix.isPreferred, true);
    assert.ok(await vscode.workspace.applyEdit(fix.edit!));
    assert.ok(names.getText().includes('reduce(%input, %zero)'), names.getText());
    await waitForNoDiagnostic(names.uri, 'instruction-undefined');
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('goes from metadata to the source line, in the workspace copy of a file recorded on another machine', async () => {
    // The fixture records /home/builder/src/proj/model/layers.py; the workspace has proj/model/layers.py.
    const src = await vscode.workspace.openTextDocument(fixture('source.hlo'));
    const defs = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
      'vscode.executeDefinitionProvider',
      src.uri,
      positionOf(src, 'layers.py', 2),
    );
    assert.equal(defs.length, 1, JSON.stringify(defs));
    const d = defs[0];
    const [uri, range] =
      'targetUri' in d ? [d.targetUri, d.targetSelectionRange ?? d.targetRange] : [d.uri, d.range];
    assert.equal(uri.fsPath, fixture('proj/model/layers.py').fsPath);
    assert.equal(range.start.line, 3);
  });

  it("opens a hover's source link in the workspace copy, and says when there is none", async () => {
    const opened = await vscode.commands.executeCommand<vscode.Uri | undefined>('xlaLayout.openSource', {
      uri: 'file:///home/builder/src/proj/model/layers.py',
      line: 3,
    });
    assert.equal(opened?.fsPath, fixture('proj/model/layers.py').fsPath);
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, fixture('proj/model/layers.py').fsPath);
    assert.equal(vscode.window.activeTextEditor?.selection.active.line, 3);
    assert.equal(
      await vscode.commands.executeCommand('xlaLayout.openSource', {
        uri: 'file:///home/builder/src/proj/model/missing.py',
        line: 0,
      }),
      undefined,
    );
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, fixture('proj/model/layers.py').fsPath);
    // A file that exists but lies outside the workspace and the dump's folder is not opened.
    for (const uri of [
      'file:///etc/passwd',
      `${fixture('source.hlo').toString()}/../../../../../etc/hostname`,
    ])
      assert.equal(
        await vscode.commands.executeCommand('xlaLayout.openSource', {
          uri,
          line: 0,
          dump: fixture('source.hlo').toString(),
        }),
        undefined,
        uri,
      );
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, fixture('proj/model/layers.py').fsPath);
    await vscode.window.showTextDocument(doc);
  });

  it('lists the HLO instructions of a source line, from the source file', async () => {
    // source.hlo (open, so the server has it) records line 4 of .../proj/model/layers.py for %s.
    await vscode.workspace.openTextDocument(fixture('source.hlo'));
    const py = await vscode.window.showTextDocument(fixture('proj/model/layers.py'));
    py.selection = new vscode.Selection(3, 0, 3, 0);
    const result = await vscode.commands.executeCommand<SourceLineResult | undefined>(
      'xlaLayout.hloForSourceLine',
    );
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.deepEqual(
      result?.items.map((i) => [i.name, i.shape, i.logicalBytes, i.physicalBytes, i.sourceLine]),
      [['s', 'f32[8]{0}', '32', '32', 4]],
    );
    py.selection = new vscode.Selection(0, 0, 0, 0);
    // A .hlo link to /dev/zero would stream forever (VS Code's search does not list it here, but
    // another file search may), a binary .hlo is no text, a 600 MB one is past the search's cap.
    const zero = fixture('zero.hlo').fsPath;
    const binary = fixture('binary.hlo').fsPath;
    const big = fixture('big.hlo').fsPath;
    symlinkSync('/dev/zero', zero);
    writeFileSync(binary, Buffer.from([0x48, 0x6c, 0x6f, 0, 1, 2, 3]));
    writeFileSync(big, '');
    truncateSync(big, 600 * 1024 * 1024);
    let none: SourceLineResult | undefined;
    try {
      none = await vscode.commands.executeCommand<SourceLineResult | undefined>('xlaLayout.hloForSourceLine');
    } finally {
      for (const f of [zero, binary, big]) rmSync(f);
    }
    assert.deepEqual(none?.items, []);
    const skipped = [...(none?.skippedOnDisk ?? [])].sort();
    assert.deepEqual(
      skipped.filter((s) => !s.startsWith('zero.hlo')),
      ['big.hlo: over 512 MiB', 'binary.hlo: binary file (NUL byte at offset 3), not HLO text'],
    );
    assert.ok(
      skipped.every((s) => !s.startsWith('zero.hlo') || s === 'zero.hlo: not a regular file'),
      skipped.join('; '),
    );
    assert.ok(
      (none?.filesOnDisk ?? 0) >= 1,
      'with nothing in the open documents, the workspace dumps on disk were searched',
    );
    // Line 5 comes only from dumps/module_0007...txt, which no test opens: it is read from disk.
    py.selection = new vscode.Selection(4, 0, 4, 0);
    const disk = await vscode.commands.executeCommand<SourceLineResult | undefined>(
      'xlaLayout.hloForSourceLine',
    );
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.deepEqual(
      disk?.items.map((i) => [
        i.name,
        i.computation,
        i.shape,
        i.logicalBytes,
        i.physicalBytes,
        i.sourceLine,
        i.range.start.line,
        vscode.Uri.parse(i.uri).path.split('/').pop(),
      ]),
      [
        [
          'square.2',
          'main.3',
          'f32[8,4]{1,0:T(8,128)}',
          '128',
          '4096',
          5,
          4,
          'module_0007.jit_layers.after_optimizations.txt',
        ],
      ],
    );
    await vscode.window.showTextDocument(doc);
  });

  it('goes to source from stack_frame_id and from a name, and lists a line through the frames', async () => {
    // framed.hlo names frames (current jax): frame 2 is line 9 of .../proj/model/layers.py, whose
    // copy is in the workspace; frame 3 is /etc/passwd, outside the workspace and the dump's folder.
    const framed = await vscode.workspace.openTextDocument(fixture('framed.hlo'));
    const targets = async (position: vscode.Position) =>
      (
        await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
          'vscode.executeDefinitionProvider',
          framed.uri,
          position,
        )
      ).map((d) =>
        'targetUri' in d
          ? [d.targetUri.fsPath, (d.targetSelectionRange ?? d.targetRange).start.line]
          : [d.uri.fsPath, d.range.start.line],
      );
    const layers = fixture('proj/model/layers.py').fsPath;
    assert.deepEqual(await targets(positionOf(framed, 'stack_frame_id=2', 15)), [[layers, 8]]);
    assert.deepEqual(await targets(positionOf(framed, '%shifted', 2)), [[layers, 8]]);
    assert.deepEqual(await targets(positionOf(framed, 'stack_frame_id=3', 15)), []);
    const hover = hoverText(
      await vscode.commands.executeCommand<vscode.Hover[]>(
        'vscode.executeHoverProvider',
        framed.uri,
        positionOf(framed, '%shifted', 2),
      ),
    );
    assert.match(hover, /layers\\\.py\\:9/);
    const py = await vscode.window.showTextDocument(fixture('proj/model/layers.py'));
    py.selection = new vscode.Selection(8, 0, 8, 0);
    const open = await vscode.commands.executeCommand<SourceLineResult | undefined>(
      'xlaLayout.hloForSourceLine',
    );
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.deepEqual(
      open?.items.map((i) => [i.name, i.sourceLine, vscode.Uri.parse(i.uri).path.split('/').pop()]),
      [['shifted', 9, 'framed.hlo']],
    );
    // Line 8 comes only from dumps/module_0008...txt, which no test opens: read from disk.
    py.selection = new vscode.Selection(7, 0, 7, 0);
    const disk = await vscode.commands.executeCommand<SourceLineResult | undefined>(
      'xlaLayout.hloForSourceLine',
    );
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.deepEqual(
      disk?.items.map((i) => [i.name, i.sourceLine, vscode.Uri.parse(i.uri).path.split('/').pop()]),
      [['shift.2', 8, 'module_0008.jit_shift.after_optimizations.txt']],
    );
    assert.ok((disk?.filesOnDisk ?? 0) >= 1);
    await vscode.window.showTextDocument(doc);
  });

  it('lists the computation and its instructions in the outline', async () => {
    const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>(
      'vscode.executeDocumentSymbolProvider',
      doc.uri,
    );
    // The outline may group computations under their HloModule; look at every level.
    const all = (list: readonly vscode.DocumentSymbol[]): vscode.DocumentSymbol[] =>
      list.flatMap((s) => [s, ...all(s.children)]);
    const main = all(symbols).find((s) => s.name.replace(/^%/, '') === 'main');
    assert.ok(main, JSON.stringify(all(symbols).map((s) => s.name)));
    const children = main.children.map((c) => c.name.replace(/^%/, ''));
    for (const name of ['p0', 'wide', 'neg'])
      assert.ok(children.includes(name), `${name} in ${children.join(', ')}`);
  });

  it('shows the call hierarchy of computations: a while loop calls its condition and body, the body a fusion', async () => {
    const content = [
      'HloModule loop',
      '%fused (p: f32[8]) -> f32[8] {',
      '  %p = f32[8]{0} parameter(0)',
      '  ROOT %n = f32[8]{0} negate(%p)',
      '}',
      '%cond (c: f32[8]) -> pred[] {',
      '  %c = f32[8]{0} parameter(0)',
      '  ROOT %k = pred[] constant(true)',
      '}',
      '%body (b: f32[8]) -> f32[8] {',
      '  %b = f32[8]{0} parameter(0)',
      '  ROOT %f = f32[8]{0} fusion(%b), kind=kLoop, calls=%fused',
      '}',
      'ENTRY %main (x: f32[8]) -> f32[8] {',
      '  %x = f32[8]{0} parameter(0)',
      '  ROOT %w = f32[8]{0} while(%x), condition=%cond, body=%body',
      '}',
    ].join('\n');
    const loop = await vscode.workspace.openTextDocument({ language: 'hlo', content });
    const [main] = await vscode.commands.executeCommand<vscode.CallHierarchyItem[]>(
      'vscode.prepareCallHierarchy',
      loop.uri,
      positionOf(loop, '%main', 1),
    );
    assert.equal(main.name, 'main');
    const out = await vscode.commands.executeCommand<vscode.CallHierarchyOutgoingCall[]>(
      'vscode.provideOutgoingCalls',
      main,
    );
    assert.deepEqual(
      out.map((c) => [c.to.name, c.to.selectionRange.start.line, c.fromRanges.map((r) => r.start.line)]),
      [
        ['cond', 5, [15]],
        ['body', 9, [15]],
      ],
    );
    const into = await vscode.commands.executeCommand<vscode.CallHierarchyIncomingCall[]>(
      'vscode.provideIncomingCalls',
      out[1].to,
    );
    assert.deepEqual(
      into.map((c) => [c.from.name, c.fromRanges.map((r) => r.start.line)]),
      [['main', [15]]],
    );
    const [fused] = await vscode.commands.executeCommand<vscode.CallHierarchyOutgoingCall[]>(
      'vscode.provideOutgoingCalls',
      out[1].to,
    );
    assert.deepEqual([fused.to.name, fused.fromRanges.map((r) => loop.getText(r))], ['fused', ['fused']]);
  });

  it('renames a computation and an instruction through VS Code, and says why a name is refused', async () => {
    const content = [
      'HloModule r',
      '%fused (p: f32[8]) -> f32[8] {',
      '  %p = f32[8]{0} parameter(0)',
      '  ROOT %n = f32[8]{0} negate(%p)',
      '}',
      'ENTRY %main (x: f32[8]) -> f32[8] {',
      '  %x = f32[8]{0} parameter(0)',
      '  ROOT %f = f32[8]{0} fusion(%x), kind=kLoop, calls=%fused, metadata={op_name="fused"}',
      '}',
    ].join('\n');
    const renamed = await vscode.workspace.openTextDocument({ language: 'hlo', content });
    const edit = await vscode.commands.executeCommand<vscode.WorkspaceEdit>(
      'vscode.executeDocumentRenameProvider',
      renamed.uri,
      positionOf(renamed, 'calls=%fused', 8),
      'negate_all',
    );
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.equal(
      renamed.getText(),
      content.replace('%fused (', '%negate_all (').replace('calls=%fused', 'calls=%negate_all'),
    );
    const param = await vscode.commands.executeCommand<vscode.WorkspaceEdit>(
      'vscode.executeDocumentRenameProvider',
      renamed.uri,
      positionOf(renamed, 'fusion(%x', 8),
      'input',
    );
    assert.deepEqual(
      param
        .get(renamed.uri)
        .map((e) => e.range.start.line)
        .sort(),
      [5, 6, 7],
    );
    await assert.rejects(
      Promise.resolve(
        vscode.commands.executeCommand(
          'vscode.executeDocumentRenameProvider',
          renamed.uri,
          positionOf(renamed, 'fusion(%x', 8),
          'f',
        ),
      ),
      /%f already names an instruction in this computation \(line 8\)/,
    );
  });

  it('completes operands, called computations and attribute keys through VS Code', async () => {
    const content = [
      'HloModule c',
      '%fused (p: f32[8]) -> f32[8] {',
      '  %p = f32[8]{0} parameter(0)',
      '  ROOT %n = f32[8]{0} negate(%p)',
      '}',
      'ENTRY %main (x: f32[8]) -> f32[8] {',
      '  %x = f32[8]{0} parameter(0)',
      '  %y = f32[8]{0} negate(%x)',
      '  ROOT %f = f32[8]{0} fusion(%y, %), kind=kLoop, calls=%, ou',
      '}',
    ].join('\n');
    const typed = await vscode.workspace.openTextDocument({ language: 'hlo', content });
    const operands = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      typed.uri,
      positionOf(typed, '%y, %', 5),
    );
    assert.deepEqual(
      operands.items.map((i) => [i.label, i.detail]),
      [
        ['y', 'f32[8]{0} negate'],
        ['x', 'f32[8]{0} parameter'],
      ],
    );
    const calls = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      typed.uri,
      positionOf(typed, 'calls=%', 7),
    );
    assert.deepEqual(
      calls.items.map((i) => i.label),
      ['fused'],
    );
    // Attribute keys XLA's parser takes on a fusion, inserted with their `=`.
    const keys = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      typed.uri,
      positionOf(typed, ', ou', 4),
    );
    const aliasing = keys.items.find((i) => i.label === 'output_to_operand_aliasing');
    assert.equal(aliasing?.kind, vscode.CompletionItemKind.Property);
    assert.equal(aliasing?.insertText, 'output_to_operand_aliasing=');
  });

  it('expands the selection from a tile entry to the layout and the shape through VS Code', async () => {
    const content = [
      'HloModule s',
      'ENTRY %main (p: f32[8,4]) -> f32[8,4] {',
      '  ROOT %p = f32[8,4]{1,0:T(8,128)} parameter(0)',
      '}',
    ].join('\n');
    const sel = await vscode.workspace.openTextDocument({ language: 'hlo', content });
    const [chain] = await vscode.commands.executeCommand<vscode.SelectionRange[]>(
      'vscode.executeSelectionRangeProvider',
      sel.uri,
      [positionOf(sel, '128)', 1)],
    );
    const texts: string[] = [];
    for (let r: vscode.SelectionRange | undefined = chain; r; r = r.parent) texts.push(sel.getText(r.range));
    // VS Code adds its own word and bracket steps; the server's are among them, in order.
    const ours = [
      '128',
      '(8,128)',
      'T(8,128)',
      '{1,0:T(8,128)}',
      'f32[8,4]{1,0:T(8,128)}',
      'ROOT %p = f32[8,4]{1,0:T(8,128)} parameter(0)',
    ];
    assert.deepEqual(
      texts.filter((t) => ours.includes(t)),
      ours,
      texts.join(' | '),
    );
  });

  it('finds instructions by name with Go to Symbol in Workspace', async () => {
    const found = await vscode.commands.executeCommand<vscode.SymbolInformation[]>(
      'vscode.executeWorkspaceSymbolProvider',
      'neg',
    );
    const neg = found.find((s) => s.location.uri.toString() === doc.uri.toString());
    assert.ok(neg, JSON.stringify(found.map((s) => [s.name, s.location.uri.toString()])));
    assert.deepEqual(
      [neg.name, neg.containerName, neg.kind, neg.location.range.start.line],
      ['neg', 'main', vscode.SymbolKind.Field, 6],
    );
    assert.equal(doc.getText(neg.location.range), 'neg');
  });

  it('cuts the outline at xlaLayout.outline.maxItems, keeping the ENTRY computation first', async () => {
    const section = vscode.workspace.getConfiguration('xlaLayout');
    /** Computations with their instructions in the outline of a fresh copy of tiles.hlo (VS Code caches an outline per document version). */
    const names = async (): Promise<string[][]> => {
      const copy = await vscode.workspace.openTextDocument({ language: 'hlo', content: doc.getText() });
      const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>(
        'vscode.executeDocumentSymbolProvider',
        copy.uri,
      );
      const all = (list: readonly vscode.DocumentSymbol[]): vscode.DocumentSymbol[] =>
        list.flatMap((s) => [s, ...all(s.children)]);
      return all(symbols)
        .filter((s) => s.kind === vscode.SymbolKind.Function)
        .map((s) => [s.name, ...s.children.map((c) => c.name)]);
    };
    assert.deepEqual(await names(), [['main', 'p0', 'p1', 'wide', 'neg']]);
    await section.update('outline.maxItems', 3, vscode.ConfigurationTarget.Global);
    try {
      // The server reads the new value when VS Code tells it the configuration changed.
      const deadline = Date.now() + 30_000;
      let seen = await names();
      while (seen[0]?.length !== 3 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        seen = await names();
      }
      assert.deepEqual(seen, [['main', 'p0', 'p1']], JSON.stringify(seen));
    } finally {
      await section.update('outline.maxItems', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('explains the out-of-memory message of a log file, then of the clipboard, beside the editor', async () => {
    const log = await vscode.workspace.openTextDocument(fixture('oom-hbm.log'));
    await vscode.window.showTextDocument(log);
    const accounts = () =>
      vscode.workspace.textDocuments.filter(
        (d) => d.uri.scheme === 'xla-layout-steps' && d.getText().startsWith('# Out-of-memory message'),
      );
    const before = accounts().length;
    await vscode.commands.executeCommand('xlaLayout.explainOom');
    await waitFor(
      vscode.workspace.onDidOpenTextDocument,
      () => (accounts().length > before ? true : undefined),
      'the account of the log',
    );
    // The markdown escapes every punctuation character of log text; read it as the preview renders it.
    const rendered = (d: vscode.TextDocument) => d.getText().replace(/\\([!-/:-@[-`{-~])/g, '$1');
    const account = rendered(accounts()[accounts().length - 1]);
    assert.match(account, /^# Out-of-memory message in oom-hbm\.log$/m);
    assert.match(account, /^92\.5% of the 22\.38G in the listed allocations is padding \(20\.70G\);/m);
    assert.match(account, /^## 1\. 16\.00G in hbm, line 19$/m);
    assert.match(account, /^- logical 256\.00M -> physical 16\.00G \(64x\); the message's 16\.00G agrees$/m);
    // A selection that starts below the top: the account still names the log's lines.
    const editor = await vscode.window.showTextDocument(log);
    editor.selection = new vscode.Selection(10, 0, log.lineCount, 0);
    await vscode.commands.executeCommand('xlaLayout.explainOom');
    await waitFor(
      vscode.workspace.onDidOpenTextDocument,
      () => (accounts().length > before + 1 ? true : undefined),
      'the account of the selection',
    );
    const selected = rendered(accounts()[accounts().length - 1]);
    assert.match(selected, /^# Out-of-memory message in the selection in oom-hbm\.log$/m);
    assert.match(selected, /^## 1\. 16\.00G in hbm, line 19$/m);
    // A log the editor does not hold: the message copied from a terminal.
    const other = await vscode.workspace.openTextDocument({ content: 'no message here\n' });
    await vscode.window.showTextDocument(other);
    await vscode.env.clipboard.writeText(log.getText().replace('Size: 4.00G', 'Size: 8.00G'));
    await vscode.commands.executeCommand('xlaLayout.explainOom');
    await waitFor(
      vscode.workspace.onDidOpenTextDocument,
      () => (accounts().length > before + 2 ? true : undefined),
      'the account of the clipboard',
    );
    const copied = rendered(accounts()[accounts().length - 1]);
    assert.match(copied, /^# Out-of-memory message in the clipboard$/m);
    assert.match(copied, /^## 1\. 16\.00G in hbm, line 19$/m);
    assert.match(
      copied,
      /^- logical 1\.00G -> physical 4\.00G \(4x\); the message says 8\.00G, not 4\.00G: the target laid it out otherwise than written$/m,
    );
  });

  it('restarts the language server and keeps answering', async () => {
    await vscode.commands.executeCommand('xlaLayout.restartServer');
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      doc.uri,
      positionOf(doc, 'f32[8,4]{1,0:T(8,128)} parameter', 2),
    );
    assert.match(hoverText(hovers), /128 B → 4 KiB \(32x\)/);
  });

  it('passes severity overrides from settings to the server, and flags unknown rule codes', async () => {
    const section = vscode.workspace.getConfiguration('xlaLayout');
    // User settings: the test profile is a throwaway, and the fixtures folder stays untouched.
    await section.update(
      'diagnostics.severity',
      { 'tile-negative': 'warning', 'tile-negativ': 'off' },
      vscode.ConfigurationTarget.Global,
    );
    try {
      const config = readConfig();
      assert.deepEqual([...config.settings.severity], [['tile-negative', 'warning']]);
      assert.deepEqual(config.problems, [
        "xlaLayout.diagnostics.severity: 'tile-negativ' is not a rule code; see docs/rules.md for the list.",
      ]);
      await waitFor(
        vscode.languages.onDidChangeDiagnostics,
        () =>
          vscode.languages
            .getDiagnostics(doc.uri)
            .some((d) => codeOf(d) === 'tile-negative' && d.severity === vscode.DiagnosticSeverity.Warning)
            ? true
            : undefined,
        'tile-negative to become a warning',
      );
    } finally {
      await section.update('diagnostics.severity', undefined, vscode.ConfigurationTarget.Global);
    }
    await waitFor(
      vscode.languages.onDidChangeDiagnostics,
      () =>
        vscode.languages
          .getDiagnostics(doc.uri)
          .some((d) => codeOf(d) === 'tile-negative' && d.severity === vscode.DiagnosticSeverity.Error)
          ? true
          : undefined,
      'tile-negative to be an error again',
    );
  });
});
