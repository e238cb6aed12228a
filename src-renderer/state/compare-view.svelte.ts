/**
 * The comparison view's state: the two sides (a session, or a time range of one), whether the
 * warm-up is included, and the comparison the service computed for them. The route holds the
 * sides (so a comparison is a link); changing a side navigates.
 */
import type { Comparison } from '../../src-main/shared/comparison';
import type { CompareTarget } from '../../src-main/shared/contract';
import { api, errorMessage } from '../lib/api';

export class CompareState {
  result = $state.raw<Comparison | undefined>(undefined);
  loading = $state(false);
  error = $state<string | undefined>(undefined);
  includeWarmup = $state(false);
  private request = 0;

  async load(a: CompareTarget, b: CompareTarget): Promise<void> {
    const id = ++this.request;
    this.loading = true;
    this.error = undefined;
    try {
      const r = await api.compareSessions(a, b, { includeWarmup: this.includeWarmup });
      if (id === this.request) this.result = r;
    } catch (e) {
      if (id === this.request) {
        this.error = errorMessage(e);
        this.result = undefined;
      }
    } finally {
      if (id === this.request) this.loading = false;
    }
  }
}
