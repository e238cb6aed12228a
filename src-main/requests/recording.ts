/**
 * What a recording asks for to get request spans (issue 42): the providers to add to a GC
 * profile's. `record --requests` with no source names asks for ASP.NET Core's Kestrel requests and
 * HttpClient's outgoing ones; `--requests Provider/Start/Stop` or `--requests ActivitySourceName`
 * add any EventSource or Activity source.
 *
 * Levels and keywords as the recorded events show them (ASP.NET Core 10): Kestrel's and
 * HttpClient's Request events are Informational (4); keyword 0 means every keyword. Connection
 * events come with them (a few per connection, not per request). An Activity source goes through
 * DiagnosticSource's Events keyword (0x2) with `FilterAndPayloadSpecs=[AS]Name`: each activity's
 * start and stop with its default arguments (about 2 KB per event: the costly choice).
 * Pure: data only (the recorder adds these to the session request).
 */
import { DIAGNOSTIC_SOURCE_PROVIDER, HTTP_CLIENT, KESTREL, TPL_FLOW_ACTIVITY_IDS, TPL_PROVIDER, type RequestSource } from './sources.js';

/** The shape of a diagnostics ProviderConfig (diagnostics/commands.ts), kept here so this folder stays below it. */
export interface RequestProviderConfig {
  name: string;
  keywords: bigint;
  level: number;
  arguments?: string;
}

/** What `--requests` alone records: incoming ASP.NET Core requests and outgoing HttpClient calls. */
export const DEFAULT_REQUEST_SOURCES: readonly RequestSource[] = [KESTREL, HTTP_CLIENT];

const INFORMATIONAL = 4;
const DIAGNOSTIC_SOURCE_EVENTS = 0x2n;

/** Providers for these sources, one per provider (Activity sources share DiagnosticSource's, specs joined). */
export function requestProviders(sources: readonly RequestSource[]): RequestProviderConfig[] {
  const out = new Map<string, RequestProviderConfig>();
  const activities: string[] = [];
  let needsActivityIds = false;
  for (const s of sources) {
    if (s.kind === 'activity') {
      activities.push(`[AS]${s.activitySource!}`);
      continue;
    }
    // A custom source may pair by ActivityId only (as Hosting's does): let EventPipe set them.
    if (s.kind === 'custom') needsActivityIds = true;
    if (!out.has(s.provider)) out.set(s.provider, { name: s.provider, keywords: 0n, level: INFORMATIONAL });
  }
  if (activities.length > 0) {
    // Specs are separated by newlines in FilterAndPayloadSpecs.
    out.set(DIAGNOSTIC_SOURCE_PROVIDER, {
      name: DIAGNOSTIC_SOURCE_PROVIDER,
      keywords: DIAGNOSTIC_SOURCE_EVENTS,
      level: INFORMATIONAL,
      arguments: `FilterAndPayloadSpecs=${activities.join('\n')}`,
    });
  }
  if (needsActivityIds) out.set(TPL_PROVIDER, { name: TPL_PROVIDER, keywords: TPL_FLOW_ACTIVITY_IDS, level: INFORMATIONAL });
  return [...out.values()];
}
