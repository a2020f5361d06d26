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
  type SplitOptions,
} from './split-statements';
export { parseStatement } from './parse-statement';
export { COMPUTATION_ATTRIBUTES } from './attribute-table';
export {
  NAME_CHECK_MAX_CHARS,
  checkNames,
  checkInstructionNames,
  checkComputationNames,
  computationCalls,
  declared,
  type ComputationCall,
  type DeclaredComputation,
} from './name-checks';
export {
  buildModule,
  symbolAt,
  computationAt,
  type HloModel,
  type HloModuleInfo,
  type HloComputation,
  type HloSymbol,
  type SymbolOccurrence,
} from './build-module';
export { createStatementParser, rebaseStatement, type StatementParser } from './statement-cache';
export { parseHloText } from './parse-text';
