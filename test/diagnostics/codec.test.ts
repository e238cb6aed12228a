/**
 * The IPC codec against the protocol's byte layouts, framing split at every byte boundary, and
 * bad peers (garbage, an error reply, a connection closed early, silence) giving typed errors
 * without hanging.
 */
import { rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { collectVersionsFor, endpointConnector, getProcessInfo, startSession } from '../../src-main/diagnostics/client.js';
import { collectTracingMessage, parseProcessInfo, stopTracingMessage } from '../../src-main/diagnostics/commands.js';
import { encodeMessage, IpcError, IpcResponseFramer, PayloadWriter } from '../../src-main/diagnostics/ipc-codec.js';
import { heapSnapshotRequest, sessionRequest } from '../../src-main/diagnostics/profiles.js';
import { parseAdvertise } from '../../src-main/diagnostics/reverse-server.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('IPC message encoding', () => {
  it('CollectTracing2 for one provider matches the worked example of the protocol', () => {
    const m = collectTracingMessage(2, {
      providers: [{ name: 'Microsoft-Windows-DotNETRuntime', keywords: 1n, level: 4 }],
      circularBufferMB: 256,
      rundownKeyword: 0n,
      requestStackwalk: true,
    });
    expect(hex(m.subarray(0, 14))).toBe(Buffer.from('DOTNET_IPC_V1\0').toString('hex'));
    expect(Buffer.from(m).readUInt16LE(14)).toBe(m.length);
    expect(hex(m.subarray(16, 20))).toBe('02030000');
    expect(hex(m.subarray(20, 29))).toBe('00010000' + '01000000' + '00');
    expect(hex(m.subarray(29, 45))).toBe('01000000' + '0100000000000000' + '04000000');
    expect(Buffer.from(m).readUInt32LE(45)).toBe(32); // 31 characters + NUL
    expect(Buffer.from(m.subarray(49, 49 + 62)).toString('utf16le')).toBe('Microsoft-Windows-DotNETRuntime');
    expect(hex(m.subarray(m.length - 6))).toBe('010000000000'); // arguments "" = count 1 + NUL
  });

  it('CollectTracing3 has id 0x04 and CollectTracing4 carries rundown keyword then requestStackwalk', () => {
    const req = sessionRequest('gc-collect');
    expect(collectTracingMessage(3, req)[17]).toBe(0x04);
    const m4 = Buffer.from(collectTracingMessage(4, req));
    expect(m4[17]).toBe(0x05);
    expect(m4.readBigUInt64LE(28)).toBe(1n);
    expect(m4[36]).toBe(0); // requestStackwalk = false
    expect(m4.readUInt32LE(37)).toBe(2); // two providers
  });

  it("a heap snapshot's walk asks a .NET 11 runtime for non-lossy buffering: CollectTracing6 (0x07) is CollectTracing5 plus a trailing u32 Block = 1", () => {
    const req = heapSnapshotRequest(1024);
    const m6 = Buffer.from(collectTracingMessage(6, req));
    const m5 = Buffer.from(collectTracingMessage(5, req));
    expect([m6[16], m6[17]]).toEqual([0x02, 0x07]);
    expect(m6.readUInt16LE(14)).toBe(m6.length);
    // Everything after the header is CollectTracing5's payload, then the buffering mode.
    expect(hex(m6.subarray(20, m6.length - 4))).toBe(hex(m5.subarray(20)));
    expect(m6.readUInt32LE(m6.length - 4)).toBe(1);
    expect(m6.readUInt32LE(20)).toBe(0); // session type: IPC stream
    expect(m6.readUInt32LE(24)).toBe(1024); // buffer MB
    expect(m6.readBigUInt64LE(32)).toBe(0x80020139n); // default rundown keyword (module paths)
    // A request that does not ask for Block says Drop (0).
    const drop = Buffer.from(collectTracingMessage(6, sessionRequest('gc-collect')));
    expect(drop.readUInt32LE(drop.length - 4)).toBe(0);
  });

  it('CollectTracing6 is tried only for Block on .NET 11 or later (from ProcessInfo), with the lossy CollectTracing4 as the fallback', () => {
    expect(collectVersionsFor('11.0.0-preview.7.25380.108', 'block')).toEqual([6, 4, 3, 2]);
    expect(collectVersionsFor('12.0.1', 'block')).toEqual([6, 4, 3, 2]);
    expect(collectVersionsFor('10.0.12', 'block')).toEqual([4, 3, 2]);
    expect(collectVersionsFor('11.0.0', 'drop')).toEqual([4, 3, 2]);
    expect(collectVersionsFor(null, 'block')).toEqual([4, 3, 2]);
    expect(collectVersionsFor('8.0.31', 'block')).toEqual([2]);
  });

  it('StopTracing carries the session id', () => {
    const m = Buffer.from(stopTracingMessage(0x1122334455667788n));
    expect([m[16], m[17], m.length]).toEqual([2, 1, 28]);
    expect(m.readBigUInt64LE(20)).toBe(0x1122334455667788n);
  });

  it('refuses a request larger than the 16-bit size field allows', () => {
    const many = Array.from({ length: 700 }, (_, i) => ({ name: `Provider-${'x'.repeat(40)}-${i}`, keywords: 1n, level: 4 }));
    expect(() => collectTracingMessage(4, { ...sessionRequest('gc-collect'), providers: many })).toThrow(/at most 65,535/);
  });
});

function processInfo2Response(): Uint8Array {
  const p = new PayloadWriter()
    .u64(4242)
    .u64(0x0102030405060708n)
    .u64(0x090a0b0c0d0e0f10n)
    .string('dotnet app.dll --flag')
    .string('Linux')
    .string('x64')
    .string('app')
    .string('8.0.11');
  return encodeMessage(0xff, 0x00, p.bytes());
}

describe('response framing', () => {
  it('a response split at every byte boundary parses identically, and stream bytes after it are kept', () => {
    const resp = processInfo2Response();
    const stream = Uint8Array.from([0x4e, 0x65, 0x74]);
    const all = new Uint8Array(resp.length + stream.length);
    all.set(resp);
    all.set(stream, resp.length);
    for (let cut = 0; cut <= all.length; cut++) {
      const f = new IpcResponseFramer();
      f.push(all.subarray(0, cut));
      const early = f.take();
      if (cut < resp.length) expect(early).toBeUndefined();
      f.push(all.subarray(cut));
      const r = f.take()!;
      expect(parseProcessInfo(2, r.message.payload)).toMatchObject({
        processId: 4242,
        commandLine: 'dotnet app.dll --flag',
        os: 'Linux',
        arch: 'x64',
        managedEntrypointAssemblyName: 'app',
        clrProductVersion: '8.0.11',
      });
      expect(Array.from(r.rest)).toEqual([0x4e, 0x65, 0x74]);
    }
  });

  it('parses the 34-byte advertise block of a reverse connection', () => {
    const b = Buffer.alloc(34);
    b.write('ADVR_V1\0', 0, 'latin1');
    b.set([0x23, 0x0d, 0x3c, 0xe1, 0xbc, 0xcc, 0x12, 0x4e, 0x93, 0x1b, 0xd9, 0xcc, 0x2e, 0xee, 0x27, 0xe4], 8);
    b.writeBigUInt64LE(777n, 24);
    expect(parseAdvertise(b)).toEqual({ cookie: 'e13c0d23-ccbc-4e12-931b-d9cc2eee27e4', pid: 777 });
    expect(() => parseAdvertise(Buffer.alloc(34))).toThrow(IpcError);
  });
});

describe('bad peers give typed errors, never a hang', () => {
  const servers: net.Server[] = [];
  afterEach(() => {
    for (const s of servers) s.close();
    servers.length = 0;
  });
  function fakePeer(behave: (s: net.Socket) => void): { path: string; pid: number } {
    const path = join(tmpdir(), `gcscope-fake-${process.pid}-${servers.length}-${Date.now()}.sock`);
    rmSync(path, { force: true });
    const srv = net.createServer((s) => s.once('data', () => behave(s)));
    srv.listen(path);
    servers.push(srv);
    return { path, pid: 999999 };
  }

  it('garbage instead of a response', async () => {
    const ep = fakePeer((s) => s.end(Buffer.from('HTTP/1.1 400 Bad Request\r\n\r\n')));
    await expect(getProcessInfo(endpointConnector(ep))).rejects.toMatchObject({ name: 'IpcError', code: 'bad-response' });
  });

  it('an error reply names the HRESULT', async () => {
    const ep = fakePeer((s) => s.end(Buffer.from(encodeMessage(0xff, 0xff, new PayloadWriter().u32(0x80004005).bytes()))));
    await expect(startSession(endpointConnector(ep), sessionRequest('gc-collect'), '10.0.0')).rejects.toThrow(/FAIL \(0x80004005\)/);
  });

  it('a connection closed before the answer', async () => {
    const ep = fakePeer((s) => s.end());
    await expect(getProcessInfo(endpointConnector(ep))).rejects.toMatchObject({ code: 'closed' });
  });

  it('a header whose size is below 20 bytes', async () => {
    const ep = fakePeer((s) => {
      const m = Buffer.from(encodeMessage(0xff, 0x00));
      m.writeUInt16LE(4, 14);
      s.end(m);
    });
    await expect(getProcessInfo(endpointConnector(ep))).rejects.toMatchObject({ code: 'bad-response' });
  });

  it('a peer that never answers times out', async () => {
    const ep = fakePeer(() => undefined);
    await expect(getProcessInfo(endpointConnector(ep, 300), 300)).rejects.toMatchObject({ code: 'timeout' });
  });

  it('a .NET 11 runtime that refuses CollectTracing6 gets the lossy CollectTracing4, and the downgrade says events may be dropped', async () => {
    const asked: number[] = [];
    const ep = fakePeer(() => undefined);
    servers[servers.length - 1]!.removeAllListeners('connection');
    servers[servers.length - 1]!.on('connection', (s: net.Socket) =>
      s.once('data', (d: Buffer) => {
        asked.push(d[17]!);
        if (d[17] === 0x07) s.end(Buffer.from(encodeMessage(0xff, 0xff, new PayloadWriter().u32(0x80131385).bytes())));
        else s.write(Buffer.from(encodeMessage(0xff, 0x00, new PayloadWriter().u64(42n).bytes())));
      }),
    );
    const started = await startSession(endpointConnector(ep), heapSnapshotRequest(1024), '11.0.0');
    started.socket.destroy();
    expect(asked).toEqual([0x07, 0x05]);
    expect(started.version).toBe(4);
    expect(started.downgrades.join(' ')).toMatch(/non-lossy buffering needs \.NET 11/);
  });

  it('an older runtime answering UNKNOWN_COMMAND gets the older command', async () => {
    // Answer ProcessInfo3/2 with UNKNOWN_COMMAND and ProcessInfo with a real payload.
    const ep = fakePeer(() => undefined);
    servers[servers.length - 1]!.removeAllListeners('connection');
    servers[servers.length - 1]!.on('connection', (s: net.Socket) =>
      s.once('data', (d: Buffer) => {
        if (d[17] !== 0x00) s.end(Buffer.from(encodeMessage(0xff, 0xff, new PayloadWriter().u32(0x80131385).bytes())));
        else s.end(Buffer.from(encodeMessage(0xff, 0x00, new PayloadWriter().u64(12).u64(0).u64(0).string('app').string('Windows').string('x86').bytes())));
      }),
    );
    await expect(getProcessInfo(endpointConnector(ep))).resolves.toMatchObject({ processId: 12, os: 'Windows', clrProductVersion: null });
  });
});
