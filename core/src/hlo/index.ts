/**
 * The HLO module model: statement splitting, statement parsing, and the module/symbol index built
 * from them. Pure TypeScript, shared by the language server (incremental) and the CLI (streaming).
 */
export * from './types';
export {
  splitStatements,
  statementBoundaryAfter,
  lastStatementBoundary,
  DEFAULT_MAX_STATEMENT_LENGTH,
  isIdentifierChar,
  isIdentifierStart,
  statementBounds,
  type SplitOptions,
} from './split-statements';
export { parseStatement, parseStatements } from './parse-statement';
export {
  COMPUTATION_ATTRIBUTES,
  ATTRIBUTE_TABLE_SOURCE,
  ATTRIBUTE_VALUE_FORMS,
  attributesAccepted,
  type HloAttributeInfo,
} from './attribute-table';
export { charAt, declaredName, lastNonBlank, skipString, skipTrivia } from './lex';
export { HLO_OPCODES, LITERAL_OPCODES, asyncFormOf, hloOpcode, isOpcode, opcodeGuesses } from './opcodes';
export {
  closestBySuffix,
  pathSegments,
  sourceLabel,
  sourceMatch,
  LongestTailMatches,
  type SourceFilter,
  SourceTextSearch,
} from './source-path';
export {
  framesFrom,
  isLibraryPath,
  metadataSource,
  resolveStackFrame,
  StackFrameTables,
  type MetadataSource,
  type ResolvedFrame,
  type SourceFrame,
} from './stack-frames';
export {
  NAME_CHECK_MAX_CHARS,
  checkNames,
  checkInstructionNames,
  checkComputationNames,
  cleanEntryLayout,
  computationCalls,
  declared,
  type ComputationCall,
  type DeclaredComputation,
} from './name-checks';
export { NameStatements } from './name-statements';
export {
  emptyComputations,
  moduleWithoutComputation,
  outsideComputation,
  secondModules,
  unclosedComputation,
  type StatementOutline,
} from './structure-checks';
export { sourceTableErrors } from './source-tables';
export {
  buildModule,
  buildComputations,
  symbolAt,
  computationAt,
  type HloModel,
  type HloComputations,
  type HloModuleInfo,
  type HloComputation,
  type HloSymbol,
  type SymbolOccurrence,
} from './build-module';
export { parseHloText } from './parse-text';
export {
  isValidatorDiagnostic,
  relaxUncheckedLayouts,
  uncheckedLayoutWarning,
  uncheckedPlaceAt,
  type UncheckedPlace,
} from './unchecked-layouts';
export { dumpCompanion, DUMP_COMPANION_NAMES, type DumpCompanionKind } from './dump-companions';
export {
  hasBadSigil,
  instructionEquals,
  nameEnd,
  plainCall,
  plainInstructionTail,
  plainOperandsEnd,
  resultShapeStart,
  skipBlanks,
  strayCloseBrace,
} from './instruction-start';
export { calledAfter, opcodeAfter, takesComputations, type OpcodeSpan } from './instruction-calls';
