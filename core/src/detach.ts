/**
 * V8 represents `text.slice(a, b)` (13+ characters) as a view into `text`, and a template string as
 * a tree of its parts. A cache that keeps such a string keeps the whole document version it came
 * from alive: after twenty edits of a 50 MB document, twenty copies of it. Strings that outlive the
 * current document version (cache keys, cached messages, names in summaries) go through
 * {@link detach} once, when they are stored.
 */

/**
 * A copy of `s` that references no other string. Joining two pieces writes them into one fresh
 * buffer of `s.length` characters. (Slicing the rope `' ' + s` also copies, but leaves a view of a
 * buffer one character longer: two objects where one will do, for every string a cache keeps.)
 * Strings shorter than 13 characters are never views or ropes in V8, so they are returned as they are.
 */
export function detach(s: string): string {
  return s.length < 13 ? s : [s.slice(0, 1), s.slice(1)].join('');
}
