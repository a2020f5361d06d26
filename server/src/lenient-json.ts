/**
 * Decoding of the JSON-RPC messages the editor sends over a byte stream (stdio, socket, pipe),
 * forgiving what a careless client writes rather than dropping the message: a dropped didChange
 * leaves the server's text different from the editor's for good. Bytes that are not UTF-8 become
 * one U+FFFD each (an editor that sends raw Latin-1 or binary counts one character per byte, so
 * lengths and positions stay in step), and control characters written raw inside JSON strings are
 * read as the characters they are. A message that is still not JSON is reported, never silent.
 */

const strict = new TextDecoder('utf-8', { fatal: true });
const loose = new TextDecoder('utf-8');

/**
 * Length of the well-formed UTF-8 sequence at `bytes[i]` (Unicode Table 3-7), or 0 when the byte
 * does not start one.
 */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const b = bytes[i];
  const next = (k: number, lo = 0x80, hi = 0xbf): boolean =>
    i + k < bytes.length && bytes[i + k] >= lo && bytes[i + k] <= hi;
  if (b < 0x80) return 1;
  if (b >= 0xc2 && b <= 0xdf) return next(1) ? 2 : 0;
  if (b >= 0xe0 && b <= 0xef) {
    const lo = b === 0xe0 ? 0xa0 : 0x80;
    const hi = b === 0xed ? 0x9f : 0xbf;
    return next(1, lo, hi) && next(2) ? 3 : 0;
  }
  if (b >= 0xf0 && b <= 0xf4) {
    const lo = b === 0xf0 ? 0x90 : 0x80;
    const hi = b === 0xf4 ? 0x8f : 0xbf;
    return next(1, lo, hi) && next(2) && next(3) ? 4 : 0;
  }
  return 0;
}

/** `bytes` as UTF-8 with every byte outside a well-formed sequence read as U+FFFD; how many were. */
export function decodeBytes(bytes: Uint8Array): { text: string; replaced: number } {
  try {
    return { text: strict.decode(bytes), replaced: 0 };
  } catch {
    // Rare: decode the well-formed runs natively, one U+FFFD per stray byte between them.
  }
  const parts: string[] = [];
  let replaced = 0;
  let run = 0;
  for (let i = 0; i < bytes.length;) {
    const n = sequenceLength(bytes, i);
    if (n > 0) {
      i += n;
      continue;
    }
    parts.push(loose.decode(bytes.subarray(run, i)), '\uFFFD');
    replaced++;
    run = ++i;
  }
  parts.push(loose.decode(bytes.subarray(run)));
  return { text: parts.join(''), replaced };
}

/** `json` with each control character inside a string literal escaped (JSON forbids them raw). */
export function escapeRawControls(json: string): string {
  let out = '';
  let from = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString && c === 0x5c) i++;
    else if (c === 0x22) inString = !inString;
    else if (inString && c < 0x20) {
      out += json.slice(from, i) + `\\u${c.toString(16).padStart(4, '0')}`;
      from = i + 1;
    }
  }
  return from === 0 ? json : out + json.slice(from);
}

/** A decoded message, and what had to be forgiven to read it (empty when nothing was). */
export interface DecodedMessage {
  readonly message: unknown;
  readonly repairs: readonly string[];
}

/**
 * The message in `bytes`, read as {@link decodeBytes} and {@link escapeRawControls} allow; throws
 * a SyntaxError naming the problem when it is not JSON even then.
 */
export function decodeMessage(bytes: Uint8Array): DecodedMessage {
  const { text, replaced } = decodeBytes(bytes);
  const repairs =
    replaced > 0 ? [`${replaced} byte${replaced === 1 ? '' : 's'} of invalid UTF-8 read as U+FFFD`] : [];
  try {
    return { message: JSON.parse(text), repairs };
  } catch (e) {
    const escaped = escapeRawControls(text);
    if (escaped === text) throw e;
    return {
      message: JSON.parse(escaped),
      repairs: [...repairs, 'raw control characters in strings read as written'],
    };
  }
}
