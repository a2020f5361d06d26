/**
 * SettingsFetch with a manual clock: once a fetch has timed out and its answer is still missing,
 * later fetches do not hold the document queue for another timeout, and the newest answer wins.
 */
import { strict as assert } from 'node:assert';
import { SettingsFetch } from '../../server/src/settings-fetch';
import { ManualClock } from '../support/manual-clock';

/** A client whose answers the test releases by hand, one pending promise per request. */
function heldClient(): { ask: () => Promise<unknown>; answer: (k: number, section: unknown) => void } {
  const replies: ((section: unknown) => void)[] = [];
  return {
    ask: () => new Promise((resolve) => replies.push(resolve)),
    answer: (k, section) => replies[k](section),
  };
}

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('server: settings fetch', () => {
  it('waits once for an unanswering client, then not again until it answers', async () => {
    const clock = new ManualClock();
    const client = heldClient();
    const applied: unknown[] = [];
    const logs: string[] = [];
    const fetch = new SettingsFetch({
      ask: client.ask,
      apply: (section) => {
        applied.push(section);
        return Promise.resolve();
      },
      later: (task) => void task(),
      log: (m) => logs.push(m),
      clock,
      timeoutMs: 3000,
    });
    let done = false;
    const first = fetch.fetch().then(() => (done = true));
    await flush();
    assert.equal(done, false, 'the first fetch waits for the answer');
    assert.equal(clock.pending, 1);
    clock.advance(3000);
    await first;
    // The first answer is still missing: the second fetch returns without a timer of its own.
    await fetch.fetch();
    assert.equal(clock.pending, 0);
    assert.equal(logs.length, 1);
    client.answer(0, 'old');
    client.answer(1, 'new');
    await flush();
    assert.deepEqual(applied, ['new'], 'only the newest fetch is applied');
    // Answered again: the next fetch waits as the first one did, and applies its answer in time.
    const third = fetch.fetch();
    await flush();
    assert.equal(clock.pending, 1);
    client.answer(2, 'third');
    await third;
    assert.deepEqual(applied, ['new', 'third']);
  });
});
