/**
 * The `, key=value` lists after an instruction, a module header or a closing `}`: attribute ranges,
 * the computations and control predecessors they name, and the metadata a source link needs.
 */
import { COMPUTATION_ATTRIBUTES } from './attribute-table';
import { NAME_KEYWORDS } from './computation-values';
import { typeAt } from '../parse/type-names';
import { diagnostic, type LayoutDiagnostic } from '../diagnostics';
import { blankBeforeEquals, spacedWords } from './leftover';
import { isIdentifierChar } from './split-statements';
import { charAt, readName, readString, skipBalanced, skipString, skipTrivia, skipValue } from './lex';
import type { Shapes } from './statement-shapes';
import type {
  CalledComputationRef,
  HloAttribute,
  HloMetadata,
  HloName,
  InlineComputationOpening,
  Writable,
} from './types';

/** Names in a `calls=` or `control-predecessors=` style value: `%a` or `{%a, %b}`. */
function readNameList(text: string, start: number, end: number, push: (name: HloName) => void): void {
  let p = skipTrivia(text, start, end);
  if (charAt(text, p, end) !== 123) {
    const n = readName(text, p, end);
    // A keyword or an element type is no name to XLA (computation-values.ts reports it).
    if (n && (charAt(text, p, end) === 37 || !(NAME_KEYWORDS.has(n.name.name) || typeAt(text, p, n.end))))
      push(n.name);
    return;
  }
  p++;
  while (p < end) {
    p = skipTrivia(text, p, end);
    const n = readName(text, p, end);
    if (!n) break;
    // `{ROOT ...` or `{%p = ...` on one line: a computation written in place, which names none.
    if (
      (n.name.name === 'ROOT' && text.charCodeAt(p) !== 37) ||
      charAt(text, skipTrivia(text, n.end, end), end) === 61
    )
      return;
    push(n.name);
    p = skipTrivia(text, n.end, end);
    if (charAt(text, p, end) !== 44) break;
    p++;
  }
}

/**
 * The value of an attribute XLA reads as a shape (`outfeed_shape=`) or a list of shapes
 * (`operand_layout_constraints={...}`), read with the shape parser: a misspelt element type or a
 * missing `[` there is an error to XLA, where the shape finder would pass over the text. The first
 * error ends the reading, as it ends XLA's.
 */
function readShapeValue(text: string, start: number, end: number, list: boolean, shapes: Shapes): void {
  if (!list) {
    shapes.parseAt(start, end);
    return;
  }
  if (charAt(text, start, end) !== 123) return;
  let p = skipTrivia(text, start + 1, end);
  if (charAt(text, p, end) === 125) return;
  for (;;) {
    const r = shapes.parseAt(p, end);
    if (!r.shape || r.failed) return;
    p = skipTrivia(text, r.end, end);
    if (charAt(text, p, end) !== 44) return;
    p = skipTrivia(text, p + 1, end);
  }
}

/** Whether `c` ends a metadata value written without quotes: white space (`\s`), `,` or `}`. */
function endsBareValue(c: number): boolean {
  if (c === 44 || c === 125 || c === 32 || (c >= 9 && c <= 13)) return true;
  return c > 127 && /\s/.test(String.fromCharCode(c));
}

/**
 * `{op_name="..." source_file="..." source_line=12 ...}` (keys separated by spaces); a key with a
 * blank before its `=` is XLA's error, added to `shapes`.
 */
function readMetadata(text: string, start: number, end: number, shapes: Shapes): HloMetadata {
  const fields: Writable<Partial<HloMetadata>> = {};
  let p = charAt(text, start, end) === 123 ? start + 1 : start;
  while (p < end) {
    p = skipTrivia(text, p, end);
    const key = readName(text, p, end);
    if (key && charAt(text, key.end, end) !== 61 && charAt(text, skipTrivia(text, key.end, end), end) === 61)
      shapes.diagnostics.push(blankBeforeEquals(text, p, key.end));
    if (!key || charAt(text, key.end, end) !== 61) break;
    p = key.end + 1;
    const valueStart = p;
    let value: string;
    if (charAt(text, p, end) === 34) {
      const s = readString(text, p, end);
      value = s.value;
      p = s.end;
    } else {
      const s = p;
      while (p < end && !endsBareValue(text.charCodeAt(p))) p++;
      value = text.slice(s, p);
    }
    switch (key.name.name) {
      case 'op_name':
        fields.opName = value;
        break;
      case 'op_type':
        fields.opType = value;
        break;
      case 'source_file':
        fields.sourceFile = value;
        fields.sourceFileRange = { start: valueStart, end: p };
        break;
      case 'source_line': {
        const n = Number(value);
        if (Number.isSafeInteger(n)) {
          fields.sourceLine = n;
          fields.sourceLineRange = { start: valueStart, end: p };
        }
        break;
      }
      case 'stack_frame_id': {
        const n = Number(value);
        if (/^\d+$/.test(value) && Number.isSafeInteger(n)) {
          fields.stackFrameId = n;
          fields.stackFrameIdRange = { start: valueStart, end: p };
        }
        break;
      }
    }
    if (charAt(text, p, end) === 44) p++;
  }
  fields.range = { start, end };
  return fields as HloMetadata;
}

/**
 * The crash of an iota `replica_groups=[G,N]<=[D...]` (`T(...)` may follow) whose group shape does
 * not hold the devices listed: XLA reshapes the iota to the group shape and CHECK-fails (the
 * process aborts) unless both hold as many elements.
 */
function iotaGroupsCrash(text: string, start: number, end: number): LayoutDiagnostic | undefined {
  const m = /^\[([\d,\s]*)\]\s*<=\s*\[([\d,\s]*)\]/.exec(text.slice(start, end));
  if (!m) return undefined;
  const product = (list: string) => list.split(',').reduce((n, d) => n * BigInt(d.trim() || '1'), 1n);
  const groups = product(m[1]);
  const devices = product(m[2]);
  if (groups === devices) return undefined;
  return diagnostic(
    'replica-groups-count',
    `Check failed: new_num_elements == num_elements() (${groups} vs. ${devices})`,
    { start, end: start + m[0].length },
    `replica_groups=[${m[1]}] asks for ${groups} device slots, but the iota after <= lists ${devices} devices: XLA aborts on the mismatch (a CHECK failure when it reshapes the iota); the group shape must multiply out to ${devices}`,
  );
}

/** Attributes whose `{...}` value holds `key=value` pairs XLA lexes as for the attribute list. */
const SUB_ATTRIBUTES: ReadonlySet<string> = new Set(['window', 'frontend_attributes', 'sharding']);

/**
 * XLA's error on the first key of the value `text[start, end)` (window, frontend_attributes,
 * sharding) with a blank or comment before its `=` (`window={size =3x3}`): its lexer reads the key
 * only with its `=`; a lone word in a sharding is its "unexpected token". Strings are skipped.
 */
function spacedKey(
  text: string,
  start: number,
  end: number,
  sharding: boolean,
): LayoutDiagnostic | undefined {
  for (let p = start; p < end;) {
    const c = text.charCodeAt(p);
    if (c === 34 || c === 39) {
      p = skipString(text, p, end);
      continue;
    }
    const key = isIdentifierChar(charAt(text, p - 1, end)) ? undefined : readName(text, p, end);
    if (!key) {
      p = c === 47 ? Math.max(p + 1, skipTrivia(text, p, end)) : p + 1;
      continue;
    }
    const after = skipTrivia(text, key.end, end);
    if (after > key.end && charAt(text, after, end) === 61) {
      if (!sharding) return blankBeforeEquals(text, p, key.end);
      return diagnostic(
        'invalid-name',
        'unexpected token',
        { start: p, end: key.end },
        spacedWords(text, p, key.end),
      );
    }
    p = key.end;
  }
  return undefined;
}

/** Where a plain attribute value starting at `vs` ends: a string, or a balanced value. */
export function valueEnd(text: string, vs: number, end: number): number {
  const c = charAt(text, vs, end);
  // A braced value is one token to XLA: what follows its `}` is the next attribute or statement.
  if (c === 123) return skipBalanced(text, vs, end);
  return c === 34 ? skipString(text, vs, end) : skipValue(text, vs, end);
}

/**
 * Reads `, key=value` pairs from `pos` on into `attributes`; `readValue` reads each value (it may
 * parse it) and returns where it ends. Returns where the list stopped, as XLA's parser stops.
 * Past a stray comma (`, , key=...`, mid-typing) the pairs after it are still read, for the
 * editor's sake (completion skips keys present, navigation follows `to_apply=`), but the list
 * still stops at that comma.
 */
export function readKeyValues(
  text: string,
  pos: number,
  end: number,
  attributes: HloAttribute[],
  readValue: (key: HloName, valueStart: number) => number,
): number {
  let p = pos;
  let stop = -1;
  for (;;) {
    // Each attribute follows a comma, and `key=` is one token to XLA's lexer: anything else ends
    // the list (and may be the next statement on the line).
    p = skipTrivia(text, p, end);
    if (charAt(text, p, end) !== 44) break;
    let at = skipTrivia(text, p + 1, end);
    if (charAt(text, at, end) === 44) {
      if (stop < 0) stop = p;
      while (charAt(text, at, end) === 44) at = skipTrivia(text, at + 1, end);
    }
    const key = readName(text, at, end);
    if (!key || charAt(text, key.end, end) !== 61) break;
    const vs = skipTrivia(text, key.end + 1, end);
    const ve = readValue(key.name, vs);
    attributes.push({ key: key.name, valueRange: { start: vs, end: ve } });
    p = Math.max(ve, key.end + 1);
  }
  return stop < 0 ? p : stop;
}

/**
 * An instruction's `, key=value` pairs from `pos` on; fills the attribute, call, control and
 * metadata lists, and reads the values XLA reads as shapes into `shapes`.
 */
export function readAttributes(
  text: string,
  pos: number,
  end: number,
  attributes: HloAttribute[],
  calls: CalledComputationRef[],
  controls: HloName[],
  shapes: Shapes,
): { metadata?: HloMetadata; end: number } {
  let metadata: HloMetadata | undefined;
  const p = readKeyValues(text, pos, end, attributes, (key, vs) => {
    const ve = valueEnd(text, vs, end);
    if (readReference(text, key.name, vs, ve, calls, controls)) return ve;
    if (key.name === 'metadata') metadata = readMetadata(text, vs, ve, shapes);
    else if (key.name === 'replica_groups') {
      const crash = iotaGroupsCrash(text, vs, ve);
      if (crash) shapes.diagnostics.push(crash);
    } else if (SUB_ATTRIBUTES.has(key.name)) {
      const spaced = spacedKey(text, vs, ve, key.name === 'sharding');
      if (spaced) shapes.diagnostics.push(spaced);
    } else if (key.name === 'outfeed_shape' || key.name === 'operand_layout_constraints')
      readShapeValue(text, vs, ve, key.name !== 'outfeed_shape', shapes);
    return ve;
  });
  return { metadata, end: p };
}

/**
 * What {@link readAttributes} puts in `attributes` and the call and control lists, without reading
 * any other value (metadata, values XLA reads as shapes, replica groups): for an instruction the
 * check found nothing wrong in, whose values hold no error. Returns where the list stopped.
 */
export function readReferences(
  text: string,
  pos: number,
  end: number,
  attributes: HloAttribute[],
  calls: CalledComputationRef[],
  controls: HloName[],
): number {
  return readKeyValues(text, pos, end, attributes, (key, vs) => {
    const ve = valueEnd(text, vs, end);
    readReference(text, key.name, vs, ve, calls, controls);
    return ve;
  });
}

/**
 * Reads the value `text[vs, ve)` of attribute `key` into `calls` when it names computations, into
 * `controls` when it is `control-predecessors`; false for any other attribute.
 */
function readReference(
  text: string,
  key: string,
  vs: number,
  ve: number,
  calls: CalledComputationRef[],
  controls: HloName[],
): boolean {
  if (COMPUTATION_ATTRIBUTES.has(key))
    readNameList(text, vs, ve, (n) => calls.push({ name: n.name, range: n.range, attribute: key }));
  else if (key === 'control-predecessors') readNameList(text, vs, ve, (n) => controls.push(n));
  else return false;
  return true;
}

/**
 * The last attribute when it names computations and its value is a `{` with nothing but trivia
 * after it in the statement: the opening of a computation written in place, whose instructions the
 * statement splitter leaves to the statements that follow.
 */
export function inlineOpening(
  text: string,
  end: number,
  attributes: readonly HloAttribute[],
): InlineComputationOpening | undefined {
  const last = attributes[attributes.length - 1];
  if (!last || !COMPUTATION_ATTRIBUTES.has(last.key.name)) return undefined;
  const brace = last.valueRange.start;
  if (charAt(text, brace, end) !== 123 || skipTrivia(text, brace + 1, end) < end) return undefined;
  return { attribute: last.key, brace: { start: brace, end: brace + 1 } };
}

/**
 * The names of the computations an instruction's attributes call (`calls=`, `to_apply=`,
 * `body=`, ...), reading its `, key=value` list from `pos` (after the operands' `)`): what
 * {@link readAttributes} puts in its call list, without reading anything else.
 */
export function calledComputationNames(text: string, pos: number, end: number): string[] {
  const names: string[] = [];
  readKeyValues(text, pos, end, [], (key, vs) => {
    const ve = valueEnd(text, vs, end);
    if (COMPUTATION_ATTRIBUTES.has(key.name)) readNameList(text, vs, ve, (n) => names.push(n.name));
    return ve;
  });
  return names;
}
