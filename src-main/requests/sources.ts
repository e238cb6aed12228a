/**
 * Where request spans come from: EventSources whose Start and Stop events bracket one request
 * (issue 42). Each source names its provider and the two events (by name as the event's metadata
 * spells it, or by event id), and what a recording asks of the provider to get them.
 *
 * Checked against events recorded from ASP.NET Core 10 (test/workloads/RequestsApp):
 * - Kestrel (`Microsoft-AspNetCore-Server-Kestrel`): RequestStart (3) / RequestStop (4), both with
 *   connectionId, requestId, httpVersion, path, method — the stop repeats the start's payload, and
 *   its ActivityId is often absent, so the payload matches them. Level Verbose, no keyword needed.
 * - Hosting (`Microsoft.AspNetCore.Hosting`): RequestStart (3: method, path) / RequestStop (4:
 *   empty): only the ActivityId (which EventPipe sets on Start/Stop events when the TPL source's
 *   TasksFlowActivityIds keyword is on) ties them together.
 * - HttpClient (`System.Net.Http`): RequestStart (1) / RequestStop (2), outgoing calls.
 * - An Activity (`Microsoft-Diagnostics-DiagnosticSource` with FilterAndPayloadSpecs `[AS]Name`):
 *   ActivityStart (16) / ActivityStop (17) with SourceName, ActivityName and Arguments, whose `Id`
 *   entry (the W3C id) is the same at start and stop.
 * Pure: data only.
 */

/** How one request's Start and Stop are paired when both carry no ActivityId. */
export type RequestSourceKind = 'server' | 'outgoing' | 'custom' | 'activity';

export interface RequestSource {
  /** A short name shown with spans ('kestrel', 'hosting', 'http-client', or what the user gave). */
  label: string;
  kind: RequestSourceKind;
  provider: string;
  /** Event name as in the metadata, or the event id as decimal digits. */
  start: string;
  stop: string;
  /** Only the events of this Activity source (activity kind): the payload's SourceName. */
  activitySource?: string;
}

export const KESTREL_PROVIDER = 'Microsoft-AspNetCore-Server-Kestrel';
export const HOSTING_PROVIDER = 'Microsoft.AspNetCore.Hosting';
export const HTTP_CLIENT_PROVIDER = 'System.Net.Http';
export const DIAGNOSTIC_SOURCE_PROVIDER = 'Microsoft-Diagnostics-DiagnosticSource';
/** Its TasksFlowActivityIds keyword (0x80) makes EventPipe give Start/Stop events an ActivityId. */
export const TPL_PROVIDER = 'System.Threading.Tasks.TplEventSource';
export const TPL_FLOW_ACTIVITY_IDS = 0x80n;

export const KESTREL: RequestSource = { label: 'kestrel', kind: 'server', provider: KESTREL_PROVIDER, start: 'RequestStart', stop: 'RequestStop' };
export const HOSTING: RequestSource = { label: 'hosting', kind: 'server', provider: HOSTING_PROVIDER, start: 'RequestStart', stop: 'RequestStop' };
export const HTTP_CLIENT: RequestSource = {
  label: 'http-client',
  kind: 'outgoing',
  provider: HTTP_CLIENT_PROVIDER,
  start: 'RequestStart',
  stop: 'RequestStop',
};

/**
 * The built-in sources, in the order the headline picks one: Kestrel's (payload-matched, with path
 * and method) before Hosting's (needs activity ids; the same requests again, so never both), then
 * outgoing HttpClient calls.
 */
export const BUILT_IN_SOURCES: readonly RequestSource[] = [KESTREL, HOSTING, HTTP_CLIENT];

/**
 * `Provider/StartEvent/StopEvent` (any EventSource), or an Activity source's name (no slash):
 * its activities through DiagnosticSource. Returns an error message for anything else.
 */
export function parseRequestSpec(text: string): RequestSource | string {
  const t = text.trim();
  if (t === '') return 'a request source needs Provider/StartEvent/StopEvent or an Activity source name';
  const parts = t.split('/');
  if (parts.length === 1) {
    if (!/^[\w.-]+$/.test(t)) return `"${text}" is not an Activity source name (letters, digits, '.', '-', '_')`;
    return { label: t, kind: 'activity', provider: DIAGNOSTIC_SOURCE_PROVIDER, start: 'ActivityStart', stop: 'ActivityStop', activitySource: t };
  }
  if (parts.length !== 3 || parts.some((p) => p.trim() === ''))
    return `"${text}": give Provider/StartEvent/StopEvent (e.g. ${KESTREL_PROVIDER}/RequestStart/RequestStop) or an Activity source name`;
  const [provider, start, stop] = parts.map((p) => p.trim()) as [string, string, string];
  return { label: `${provider}/${stemOf(start, stop)}`, kind: 'custom', provider, start, stop };
}

/**
 * What a Start/Stop pair is named by: the name both share before Start/Stop or Begin/End
 * ('RequestStart'/'RequestStop' → 'Request', the name the opcode convention gives the same
 * events, so a session's groups read the same however they were recorded), else both names.
 */
function stemOf(start: string, stop: string): string {
  for (const [a, b] of [
    ['Start', 'Stop'],
    ['Begin', 'End'],
  ] as const) {
    if (start.endsWith(a) && stop.endsWith(b)) {
      const stem = start.slice(0, -a.length);
      if (stem !== '' && stem === stop.slice(0, -b.length)) return stem;
    }
  }
  return `${start}-${stop}`;
}

/** Whether an event (provider, id, name) is this source's start or stop, or neither. */
export function eventRole(s: RequestSource, provider: string, eventId: number, eventName: string): 'start' | 'stop' | undefined {
  if (provider !== s.provider) return undefined;
  if (eventName === s.start || String(eventId) === s.start) return 'start';
  if (eventName === s.stop || String(eventId) === s.stop) return 'stop';
  return undefined;
}
