/**
 * Names for the non-CLR events of an ETL, as TraceEvent prints them (its `Provider/Task/Opcode`),
 * so `gcscope events` on an .etl reads like on a .nettrace instead of listing GUIDs and opcode
 * numbers. Every name here was checked against a TraceEvent baseline of a real file
 * (test/fixtures/baselines/*.baseline.txt: the COUNT of the name equals the count of the
 * (group, opcode) or (provider, id) it is given to); what could not be told apart that way (two
 * events with the same count) keeps its number. The CLR's own providers are named by
 * providers.ts and their events by clr/event-names.ts.
 */

/** Classic kernel events (SYSTEM/PERFINFO headers) by `group << 8 | opcode`. */
const KERNEL_EVENTS: Record<number, string> = {
  0x0000: 'EventTrace', // the log-file header; TraceEvent names it by its task alone
  0x0005: 'EventTrace/Extension',
  0x0008: 'EventTrace/RundownComplete',
  0x0020: 'EventTrace/EndExtension',
  0x010a: 'DiskIO/Read',
  0x010b: 'DiskIO/Write',
  0x010c: 'DiskIO/ReadInit',
  0x010d: 'DiskIO/WriteInit',
  0x010e: 'DiskIO/FlushBuffers',
  0x010f: 'DiskIO/FlushInit',
  0x0220: 'Memory/HardFault',
  0x0301: 'Process/Start',
  0x0302: 'Process/Stop',
  0x0303: 'Process/DCStart',
  0x0304: 'Process/DCStop',
  // Image Load is hooked in the Process group (WMI_LOG_TYPE_IMAGE_LOAD); TraceEvent names it Image/Load.
  0x030a: 'Image/Load',
  0x0320: 'Process/PerfCtr',
  0x0321: 'Process/PerfCtrRundown',
  0x0327: 'Process/Defunct',
  0x0420: 'FileIO/FileCreate',
  0x0423: 'FileIO/FileDelete',
  0x0424: 'FileIO/FileRundown',
  0x0501: 'Thread/Start',
  0x0502: 'Thread/Stop',
  0x0503: 'Thread/DCStart',
  0x0504: 'Thread/DCStop',
  0x061a: 'TcpIp/SendIPV6',
  0x061b: 'TcpIp/RecvIPV6',
  0x080a: 'UdpIp/Send',
  0x080b: 'UdpIp/Recv',
  0x081a: 'UdpIp/SendIPV6',
  0x081b: 'UdpIp/RecvIPV6',
  0x0b0a: 'SystemConfig/CPU',
  0x0b0b: 'SystemConfig/PhyDisk',
  0x0b0c: 'SystemConfig/LogDisk',
  0x0b0d: 'SystemConfig/NIC',
  0x0b0f: 'SystemConfig/Services',
  0x0b16: 'SystemConfig/PnP',
  0x0b17: 'SystemConfig/IDEChannel',
  0x0b19: 'SystemConfig/Platform',
  0x0f2e: 'PerfInfo/Sample',
  0x0f49: 'PerfInfo/CollectionStart',
  0x0f4a: 'PerfInfo/CollectionEnd',
  0x1402: 'Image/Unload',
  0x1403: 'Image/DCStart',
  0x1404: 'Image/DCStop',
  0x1421: 'Image/KernelBase',
  0x1820: 'StackWalk/Stack',
  0x1823: 'StackWalk/KeyDelete',
  0x1824: 'StackWalk/KeyRundown',
  0x1825: 'StackWalk/StackKeyKernel',
  0x1826: 'StackWalk/StackKeyUser',
};

/** The kernel event's `Task/Opcode` name, or undefined when it is not one named here. */
export function kernelEventName(group: number, opcode: number): string | undefined {
  return KERNEL_EVENTS[(group << 8) | opcode];
}

interface KnownProvider {
  name: string;
  /** Manifest and EventSource events by id. */
  events?: Record<number, string>;
  /** Classic (MOF) events by opcode. */
  opcodes?: Record<number, string>;
}

/** EventSource's manifest event (id 0xFFFE), present in every EventSource's stream. */
const MANIFEST = { 65534: 'ManifestData' };

/** Providers by GUID (registry form, lower case). */
const PROVIDERS: Record<string, KnownProvider> = {
  '2e5dba47-a3d2-4d16-8ee0-6671ffdcd7b5': {
    name: 'System.Threading.Tasks.TplEventSource',
    events: { 7: 'TaskScheduled/Send', 8: 'TaskExecute/Start', 9: 'TaskExecute/Stop', ...MANIFEST },
  },
  '8e9f5090-2d75-4d03-8a81-e5afbf85daf1': {
    name: 'System.Diagnostics.Eventing.FrameworkEventSource',
    events: { 30: 'ThreadPoolEnqueueWork', 31: 'ThreadPoolDequeueWork', ...MANIFEST },
  },
  '22fb2cd6-0e7b-422b-a0c7-2fad1fd0e716': { name: 'Microsoft-Windows-Kernel-Process', events: { 1: 'ProcessStart/Start', 2: 'ProcessStop/Stop' } },
  'edd08927-9cc4-4e65-b970-c2560fb5c289': { name: 'Microsoft-Windows-Kernel-File', events: { 12: 'Create' } },
  '1c95126e-7eea-49a9-a3fe-a378b03ddb4d': { name: 'Microsoft-Windows-DNS-Client', events: { 1001: 'DnsServerForInterface' } },
  '315a8872-923e-4ea2-9889-33cd4754bf64': { name: 'Microsoft-Windows-Immersive-Shell' },
  'b675ec37-bdb6-4648-bc92-f3fdc74d3ca2': { name: 'Microsoft-Windows-Kernel-EventTracing', events: { 14: 'ETW_TASK_PROVIDER/ETW_OPCODE_ENABLE' } },
  'a8a71ac1-040f-54a2-07ca-00a89b5ab761': {
    name: 'PerfView',
    events: { 10: 'CommandLineParameters', 14: 'ProviderEnableParameters', 22: 'PerfViewLog', ...MANIFEST },
  },
  // xperf's and PerfView's kernel-trace helper: the image identities (PE timestamp, PDB signature) that symbol lookup needs.
  'b3e675d7-2554-4f18-830b-2762732560de': {
    name: 'KernelTraceControl',
    opcodes: { 0: 'ImageID', 32: 'ImageID/None', 36: 'ImageID/DbgID_RSDS', 37: 'ImageID/DbgID_ILRSDS', 64: 'ImageID/FileVersion' },
  },
  'bbccf6c1-6cd1-48c4-80ff-839482e37671': { name: 'KernelTraceControl', opcodes: { 32: 'MetaData/EventInfo', 33: 'MetaData/EventMapInfo' } },
  // SysConfigEx: TraceEvent lists these as the kernel's.
  '9b79ee91-b5fd-41c0-a243-4248e266e9d0': {
    name: 'Windows Kernel',
    opcodes: { 32: 'SysConfig/BuildInfo', 33: 'SysConfig/SystemPaths', 34: 'SysConfig/UnknownVolume', 35: 'SysConfig/VolumeMapping' },
  },
};

/** A provider's name by GUID, or undefined. */
export function providerName(guid: string): string | undefined {
  return PROVIDERS[guid]?.name;
}

/** A manifest or EventSource event's name by provider GUID and id, or undefined. */
export function manifestEventName(guid: string, id: number): string | undefined {
  return PROVIDERS[guid]?.events?.[id];
}

/** A classic (MOF) event's name by provider GUID and opcode, or undefined. */
export function classicEventName(guid: string, opcode: number): string | undefined {
  return PROVIDERS[guid]?.opcodes?.[opcode];
}
