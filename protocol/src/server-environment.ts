/**
 * Environment variables the clients set for the language server process. The server receives a
 * large document as one JSON-RPC message, read in 64 KiB pieces; glibc serves allocations of that
 * size from its heap and keeps the freed pieces for as long as the process runs. With the mmap
 * threshold at 64 KiB those pieces are mapped and unmapped on their own. Other C libraries ignore
 * the variable. (Figures in docs/performance.md.)
 */
export const SERVER_ENVIRONMENT: Readonly<Record<string, string>> = {
  MALLOC_MMAP_THRESHOLD_: '65536',
};

/**
 * Node options the clients start the language server with. V8's default young generation (16 MiB
 * semi-spaces) is mostly short-lived strings and diagnostics of the analysis that the server keeps
 * resident; 8 MiB keeps it smaller at no cost in speed, where 4 MiB slows the open of dumps with
 * many distinct shapes (more scavenges). The flag must be given at start-up: V8 ignores it when
 * set from inside the server. (Figures in docs/performance.md.)
 */
export const SERVER_NODE_ARGS: readonly string[] = ['--max-semi-space-size=8'];
