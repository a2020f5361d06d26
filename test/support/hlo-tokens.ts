/**
 * HLO's brackets and the comma: the delimiters of shapes, layouts, tuples, dimension and operand
 * lists. Every fuzzer's and property test's vocabulary of junk starts from them, since a missing,
 * extra or misplaced one is what moves a parser or splitter into its unusual states.
 */
export const DELIMITERS = ['[', ']', '{', '}', '(', ')', ','] as const;
