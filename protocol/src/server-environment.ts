/**
 * Environment variables the clients set for the language server process. The server receives a
 * 50 MB document as one JSON-RPC message, read in 64 KiB pieces; glibc serves allocations of that
 * size from its heap and keeps the freed pieces, so the server would hold about 50 MiB it no longer
 * uses for as long as it runs (measured: 234 → 190 MiB resident after opening a 50 MB dump). With
 * the mmap threshold at 64 KiB those pieces are mapped and unmapped on their own. Other C
 * libraries ignore the variable.
 */
export const SERVER_ENVIRONMENT: Readonly<Record<string, string>> = {
  MALLOC_MMAP_THRESHOLD_: '65536',
};

/**
 * Node options the clients start the language server with. V8 lets the young generation grow to
 * 16 MiB semi-spaces (two of them resident, plus promotion slack), which the analysis of a large
 * document fills with short-lived strings and diagnostics. 8 MiB keeps the server about 20 MiB
 * smaller after opening a 50 MB dump (bench, model dump: 180-193 → 164-168 MiB resident),
 * complete diagnostics no slower. 4 MiB saved a little more but made a dump of many distinct
 * shapes (the bench's stress dump) 1.4-1.5x slower to open: more frequent scavenges, each
 * scanning the old summaries array the analysis keeps writing young objects into. The flag must be
 * given at start-up: set from inside the server with `v8.setFlagsFromString` it changed nothing.
 */
export const SERVER_NODE_ARGS: readonly string[] = ['--max-semi-space-size=8'];
