/** The static-file containment check shared by `gcscope serve` and Electron's app:// handler (defect 3). */
import { describe, expect, it } from 'vitest';
import { isInsideFolder, staticFilePath } from '../../src-main/service/static-path.js';

describe('static file paths', () => {
  const root = '/opt/gcscope/dist/renderer';
  it('maps / to index.html and ordinary paths inside the folder', () => {
    expect(staticFilePath(root, '/')).toBe(`${root}/index.html`);
    expect(staticFilePath(root, '/assets/app.js')).toBe(`${root}/assets/app.js`);
  });
  it('refuses a sibling folder that shares the prefix (renderer-private)', () => {
    expect(staticFilePath(root, '/..%2Frenderer-private%2Fsecret.txt')).toBeNull();
    expect(isInsideFolder(root, '/opt/gcscope/dist/renderer-private/secret.txt')).toBe(false);
    expect(isInsideFolder(root, '/opt/gcscope/dist/renderer/a/../b.js')).toBe(true);
  });
  it('refuses traversal, invalid percent-encoding and NUL bytes instead of throwing', () => {
    expect(staticFilePath(root, '/../../etc/passwd')).toBeNull();
    expect(staticFilePath(root, '/%ff')).toBeNull();
    expect(staticFilePath(root, '/index.html%00.png')).toBeNull();
  });
});
