/**
 * The untrusted edge of the contract: every call from a renderer (over Electron IPC or the
 * WebSocket bridge) names a method and passes arguments; both are validated here with zod schemas
 * before the service runs, and the outcome crosses back as data (`{ ok, value }` or
 * `{ ok: false, error: { code, message } }`), because thrown errors lose their fields across
 * process and context boundaries.
 */
import { z } from 'zod';
import { PROFILER_METHODS, type ApiResult, type ProfilerApi, type ProfilerMethod } from '../shared/contract.js';
import { toApiError } from './errors.js';

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const path = z.string().min(1).max(4096);
const profile = z.enum(['gc-collect', 'gc-verbose', 'gc-survival', 'gc-requests']);
const msec = z.number().finite();
const uploadId = z.string().regex(/^[\w-]{8,64}$/);
/** A machine-wide trace's processes to import: at least one, each a process id, none twice. */
const processIds = z
  .array(z.number().int().positive().max(0xffffffff))
  .min(1)
  .max(1024)
  .refine((a) => new Set(a).size === a.length, 'a process id is given twice');
const through = z
  .number()
  .int()
  .min(0)
  .max(2 ** 31)
  .nullable();
const flags3 = z.tuple([z.boolean(), z.boolean(), z.boolean()]);
const compareTarget = z.object({ sessionId: id, fromMSec: msec.nullable(), toMSec: msec.nullable() }).strict();
const gcFilter = z
  .object({
    generations: flags3,
    kinds: flags3,
    reason: z.number().int().min(-1).max(1000),
    minPauseMSec: z.number().finite().min(0).nullable(),
    gcs: z
      .array(
        z
          .number()
          .int()
          .min(0)
          .max(2 ** 31),
      )
      .max(1_000_000)
      .nullable()
      .optional(),
  })
  .strict();
const maybeMsec = msec.nullable();
/** Settings overrides: `rule-id.name` → a finite number (the service checks the names). */
const overrides = z
  .record(z.string().regex(/^[a-z0-9-]{1,64}\.[A-Za-z0-9]{1,64}$/), z.number().finite())
  .refine((o) => Object.keys(o).length <= 500, 'too many settings');

/** Argument tuples per method. */
export const ARG_SCHEMAS: { [K in ProfilerMethod]: z.ZodType<Parameters<ProfilerApi[K]>> } = {
  appInfo: z.tuple([]),
  listProcesses: z.tuple([]),
  startRecording: z.tuple([id, profile]),
  stopRecording: z.tuple([id]),
  startWatch: z.tuple([
    id,
    z
      .object({
        triggers: z.array(z.string().min(1).max(200)).max(20),
        ringMB: z.number().min(1).max(4096),
        beforeSec: z.number().min(0).max(3600),
        afterSec: z.number().min(0).max(600),
        cooldownSec: z.number().min(0).max(86400),
        maxPerHour: z.number().int().min(1).max(3600),
        verboseAfter: z.boolean(),
        reattach: z.boolean(),
      })
      .strict(),
  ]),
  listCaptures: z.tuple([id]),
  captureOf: z.tuple([id]),
  getRequestSpans: z.tuple([id]),
  heapSizeAtLastGc: z.tuple([id]),
  takeHeapSnapshot: z.tuple([id, z.number().finite().min(0).nullable()]),
  getHeapTypes: z.tuple([
    id,
    z
      .object({
        search: z.string().max(500).nullable(),
        module: z.string().max(1000).nullable(),
        sort: z.enum(['retained', 'bytes', 'count', 'name', 'growth']),
        diffWith: id.nullable(),
        limit: z.number().int().min(1).max(100_000),
      })
      .strict(),
  ]),
  getHeapDominators: z.tuple([id, z.number().int().min(1).max(1000)]),
  getHeapPaths: z.tuple([id, z.string().min(1).max(4096)]),
  liveHeapAtLastGc: z.tuple([id]),
  takeLiveHeapSnapshot: z.tuple([id, z.number().finite().min(0).nullable()]),
  listSnapshotMarks: z.tuple([id]),
  getHeapGrowth: z.tuple([id]),
  importTracePath: z.union([z.tuple([path, z.boolean()]), z.tuple([path, z.boolean(), processIds])]),
  uploadChunk: z.tuple([
    z.string().regex(/^[\w-]{8,64}$/),
    z
      .number()
      .int()
      .min(0)
      .max(2 ** 40),
    z.string().max(8 * 1024 * 1024),
  ]),
  importUpload: z.union([
    z.tuple([uploadId, z.string().min(1).max(512), z.boolean()]),
    z.tuple([uploadId, z.string().min(1).max(512), z.boolean(), processIds]),
  ]),
  traceProcesses: z.tuple([z.union([z.object({ path }).strict(), z.object({ uploadId, fileName: z.string().min(1).max(512) }).strict()])]),
  cancelImport: z.tuple([z.string().min(1).max(64)]),
  pickAndImportTrace: z.tuple([]),
  openSampleTrace: z.tuple([]),
  listSessions: z.tuple([]),
  getSessionData: z.tuple([id]),
  getRangeSummary: z.union([z.tuple([id, msec, msec]), z.tuple([id, msec, msec, through]), z.tuple([id, msec, msec, through, gcFilter])]),
  getGcDetail: z.tuple([id, z.number().int().min(0)]),
  getStackAllocations: z.tuple([
    id,
    z
      .object({
        fromMSec: maybeMsec,
        toMSec: maybeMsec,
        direction: z.enum(['bottom-up', 'top-down']),
        kind: z.enum(['small', 'large', 'pinned']).nullable(),
        typeName: z.string().max(4096).nullable(),
        search: z.string().max(500).nullable(),
      })
      .strict(),
  ]),
  getGcWho: z.tuple([id, z.number().int().min(0)]),
  getTableExtras: z.tuple([id]),
  getServerGc: z.tuple([id]),
  getHeapBalance: z.tuple([id, z.number().int().min(0)]),
  compareSessions: z.tuple([compareTarget, compareTarget, z.object({ includeWarmup: z.boolean() }).strict()]),
  updateSession: z.tuple([
    id,
    z.object({ name: z.string().max(200).optional(), tags: z.array(z.string().max(50)).max(50).optional(), notes: z.string().max(20000).optional() }).strict(),
  ]),
  deleteSession: z.tuple([id]),
  reimportSession: z.tuple([id]),
  exportSession: z.union([
    z.tuple([id, z.enum(['csv', 'json', 'html', 'nettrace'])]),
    z.tuple([id, z.enum(['csv', 'json', 'html', 'nettrace']), z.object({ fromMSec: msec, toMSec: msec, filter: gcFilter.nullable() }).strict()]),
  ]),
  getFindings: z.union([z.tuple([id, maybeMsec, maybeMsec]), z.tuple([id, maybeMsec, maybeMsec, through])]),
  getDiagnosisSettings: z.tuple([]),
  setDiagnosisSettings: z.tuple([overrides]),
} as never;

export function isMethod(name: unknown): name is ProfilerMethod {
  return typeof name === 'string' && (PROFILER_METHODS as readonly string[]).includes(name);
}

export async function dispatch(api: ProfilerApi, method: unknown, args: unknown): Promise<ApiResult<unknown>> {
  // String(x) of an object whose toString/valueOf are not functions throws: name only strings.
  if (!isMethod(method))
    return {
      ok: false,
      error: { code: 'bad-request', message: `Unknown method ${typeof method === 'string' ? method.slice(0, 60) : `(a ${typeof method})`}.` },
    };
  const parsed = ARG_SCHEMAS[method].safeParse(args);
  if (!parsed.success)
    return {
      ok: false,
      error: {
        code: 'bad-request',
        message: `Invalid arguments for ${method}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'args'} ${i.message}`).join('; ')}.`,
      },
    };
  try {
    const fn = api[method] as (...a: unknown[]) => Promise<unknown>;
    return { ok: true, value: await fn.apply(api, parsed.data as unknown[]) };
  } catch (e) {
    return { ok: false, error: toApiError(e) };
  }
}
