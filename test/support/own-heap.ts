/**
 * Runs a test module in a worker thread, which has a V8 heap of its own: what earlier tests of the
 * same mocha process leave running or reachable cannot count against a measurement of what stays
 * alive. The module posts one message (its result) to its parent.
 */
import { Worker } from 'node:worker_threads';

export async function inOwnHeap<T>(file: string): Promise<T> {
  // The worker does not inherit mocha's TypeScript loader: register tsx's CommonJS hook first.
  const worker = new Worker(`require('tsx/cjs'); require(${JSON.stringify(file)});`, {
    eval: true,
    execArgv: [],
  });
  try {
    return await new Promise<T>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`worker exited (${code}) without a result`)));
    });
  } finally {
    await worker.terminate();
  }
}
