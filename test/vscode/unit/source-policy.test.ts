/** Which recorded source files go to source may open: file scheme, inside the workspace or the dump's folder. */
import { strict as assert } from 'node:assert';
import {
  folderOf,
  isInside,
  normalPath,
  sourceRefusal,
  type UriParts,
} from '../../../client/src/source-policy';

const file = (path: string): UriParts => ({ scheme: 'file', authority: '', path });

describe('client: source files go to source may open', () => {
  const workspace = file('/home/u/proj');
  const dump = file('/tmp/dumps/module_0001.after_optimizations.txt');
  const roots = [workspace, folderOf(dump)];

  it('resolves . and .. before comparing, never above the root', () => {
    assert.equal(normalPath('/tmp/dumps/../../../../home/u/.ssh/id_rsa'), '/home/u/.ssh/id_rsa');
    assert.equal(normalPath('//a/./b//c/'), '/a/b/c');
    assert.equal(folderOf(dump).path, '/tmp/dumps');
  });

  it('opens files in the workspace or beside the dump', () => {
    assert.equal(sourceRefusal(file('/home/u/proj/model/train.py'), roots, dump), undefined);
    assert.equal(sourceRefusal(file('/tmp/dumps/model.py'), roots, dump), undefined);
    assert.equal(sourceRefusal(file('/tmp/dumps/sub/../model.py'), roots, dump), undefined);
  });

  it('refuses files elsewhere, a sibling folder sharing a prefix, and other schemes', () => {
    for (const path of [
      '/etc/passwd',
      '/tmp/dumps/../../home/u/.ssh/id_rsa',
      '/home/u/project-secrets/key.py',
      '/home/u/proj/../.ssh/id_rsa',
    ])
      assert.equal(sourceRefusal(file(path), roots, dump), 'outside', path);
    for (const scheme of ['javascript', 'command', 'https', 'vscode'])
      assert.equal(
        sourceRefusal({ scheme, authority: '', path: '/home/u/proj/x.py' }, roots, dump),
        'scheme',
      );
    // Another host's file is not this workspace's.
    assert.equal(isInside({ scheme: 'file', authority: 'server', path: '/home/u/proj/x' }, workspace), false);
  });

  it("takes a virtual workspace's files in the dump's own scheme, and Windows drive letters in either case", () => {
    const vfs = { scheme: 'vscode-vfs', authority: 'github', path: '/o/r/dumps/m.hlo' };
    assert.equal(sourceRefusal({ ...vfs, path: '/o/r/dumps/x.py' }, [folderOf(vfs)], vfs), undefined);
    assert.equal(isInside(file('/c:/src/x.py'), file('/C:/src')), true);
  });
});
