/**
 * Address → native module, from the trace's own image events (ETW kernel Image Load/DCStart/
 * Unload): a frame no CLR method covers — the runtime itself (clr.dll, coreclr.dll), NGEN or
 * ready-to-run images whose methods had no rundown, the OS — is still named `module!0xRVA`, as
 * PerfView shows a frame whose symbols it could not load. No module file or PDB is read. Pure.
 */
import type { TraceImage } from '../trace/model.js';

export class ModuleMap {
  private starts: number[] = [];
  private ends: number[] = [];
  private names: string[] = [];
  private sorted = true;

  get size(): number {
    return this.starts.length;
  }

  /** Adds an image; a range overlapping one already held is still added (the later-starting wins a lookup). */
  add(image: Pick<TraceImage, 'imageBase' | 'imageSize' | 'fileName'>): void {
    if (!(image.imageSize > 0)) return;
    this.starts.push(image.imageBase);
    this.ends.push(image.imageBase + image.imageSize);
    this.names.push(moduleName(image.fileName));
    this.sorted = false;
  }

  /** `module!0xRVA` for an address inside a known image, else undefined. */
  frameName(address: number): string | undefined {
    if (!this.sorted) this.sort();
    const s = this.starts;
    let lo = 0;
    let hi = s.length - 1;
    let at = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (s[mid]! <= address) {
        at = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (at < 0 || address >= this.ends[at]!) return undefined;
    return `${this.names[at]}!0x${(address - s[at]!).toString(16)}`;
  }

  private sort(): void {
    const idx = this.starts.map((_, i) => i).sort((a, b) => this.starts[a]! - this.starts[b]! || a - b);
    this.starts = idx.map((i) => this.starts[i]!);
    this.ends = idx.map((i) => this.ends[i]!);
    this.names = idx.map((i) => this.names[i]!);
    this.sorted = true;
  }
}

/** The file name of a kernel image path, without directories ('\\Device\\…\\clr.dll' → 'clr.dll'). */
export function moduleName(path: string): string {
  const cut = Math.max(path.lastIndexOf('\\'), path.lastIndexOf('/'));
  return cut >= 0 ? path.slice(cut + 1) : path;
}
