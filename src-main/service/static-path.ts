/**
 * Mapping a request path to a file under a served folder, shared by `gcscope serve` and the
 * Electron `app://` protocol. The containment check compares whole path segments: a bare
 * `startsWith(root)` would also accept a sibling such as `renderer-private/` next to `renderer/`.
 */
import { isAbsolute, join, normalize, relative, sep } from 'node:path';

/** True when `file` is `root` itself or lies inside it (both absolute and normalized). */
export function isInsideFolder(root: string, file: string): boolean {
  const rel = relative(root, file);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * The file a URL path names under `root`, or null when the path is not valid percent-encoding,
 * holds a NUL, or leaves the folder. `/` means `/index.html`.
 */
export function staticFilePath(root: string, urlPathname: string): string | null {
  let rel: string;
  try {
    rel = decodeURIComponent(urlPathname);
  } catch {
    return null;
  }
  if (rel.includes('\0')) return null;
  if (rel === '/' || rel === '') rel = '/index.html';
  const file = normalize(join(root, rel));
  return isInsideFolder(root, file) ? file : null;
}
