/**
 * Provider GUIDs an ETL names: the CLR's three providers get the names the CLR decoders
 * (src-main/clr) match on EventPipe records, so a GC analysis reads ETW and EventPipe alike;
 * other manifest, TraceLogging and classic providers are named by their GUID; kernel events
 * (SYSTEM/PERFINFO headers, which carry no GUID) by the classic group.
 */
export const CLR_PROVIDERS: Readonly<Record<string, string>> = {
  'e13c0d23-ccbc-4e12-931b-d9cc2eee27e4': 'Microsoft-Windows-DotNETRuntime',
  '763fd754-7086-4dfe-95eb-c01a46faf4ca': 'Microsoft-Windows-DotNETRuntimePrivate',
  'a669021c-c450-4609-a035-5af59af4df18': 'Microsoft-Windows-DotNETRuntimeRundown',
};

/** The provider name of kernel events (TraceEvent's "Windows Kernel"); the event name is `Group/Opcode`. */
export const KERNEL_PROVIDER = 'Windows Kernel';

/** First bytes of the runtime provider GUID as stored (little-endian first group): a fast pre-check. */
export const RUNTIME_GUID_U32 = 0xe13c0d23;
export const PRIVATE_GUID_U32 = 0x763fd754;
export const RUNDOWN_GUID_U32 = 0xa669021c;

/** CLR runtime event 82: ClrStack/Walk — the stack of the CLR event before it on the same thread. */
export const CLR_STACK_WALK_ID = 82;
