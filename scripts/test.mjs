// `npm test`'s last step: runs vitest's two projects (vitest.config.ts) side by side.
//
// Why two processes instead of one `vitest run`: vitest gives every project of a run one worker
// limit. With one worker (vitest's default on two cores) the ~200 s of `unit` files waited behind
// the ~700 s of `slow` ones, which mostly wait on .NET processes and a browser; with two, two slow
// files ran at once and their timing-bound checks (watch's hundreds of GCs a second, live lanes)
// lost the second core. So the slow project runs alone in its worker at normal priority, and the
// unit project beside it at a lower CPU priority: it fills the slow files' idle time without
// taking their core.
//
// The slow run's output streams as it comes; the unit run's is printed as one block when both are
// done, followed by one summary of both (the ten slowest files, and the closing
// `vitest: N passed, N failed, N skipped` line CI reads). Exit status: 0 only when both passed.
//
// With arguments (`npm test -- test/x.test.ts`), it is plain `vitest run ARGS`.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, createWriteStream } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const args = process.argv.slice(2);

/** Runs vitest with `argv`; resolves with its exit code. */
function run(argv, { env = {}, output = 'inherit', lowPriority = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [vitest, 'run', ...argv], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: output === 'inherit' ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    if (lowPriority && child.pid !== undefined) {
      // Before vitest forks its workers, which inherit it. Not fatal where it is not allowed.
      try {
        setPriority(child.pid, 10);
      } catch {
        /* runs at normal priority */
      }
    }
    if (output !== 'inherit') {
      child.stdout.pipe(output, { end: false });
      child.stderr.pipe(output, { end: false });
    }
    child.on('error', (e) => {
      process.stderr.write(`could not start vitest: ${e.message}\n`);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const children = [];
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    for (const c of children) c.kill(sig);
    process.exit(130);
  });
}

if (args.length > 0) {
  process.exit(await run(args));
}

const started = Date.now();
const tmp = mkdtempSync(join(tmpdir(), 'gcscope-test-'));
const summary = (name) => join(tmp, `${name}.json`);
const unitLog = join(tmp, 'unit.log');
const unitOut = createWriteStream(unitLog);
const color = process.stdout.isTTY ? { FORCE_COLOR: '1' } : {};

const [slowCode, unitCode] = await Promise.all([
  run(['--project', 'slow'], { env: { GCSCOPE_TEST_SUMMARY_FILE: summary('slow') } }),
  run(['--project', 'unit'], {
    env: { GCSCOPE_TEST_SUMMARY_FILE: summary('unit'), GCSCOPE_TEST_BESIDE_SLOW: '1', ...color },
    output: unitOut,
    lowPriority: true,
  }),
]);
await new Promise((res) => unitOut.end(res));

process.stdout.write('\n──── unit project (ran beside the slow project, at lower CPU priority) ────\n');
process.stdout.write(readFileSync(unitLog));

const read = (name) => {
  try {
    return JSON.parse(readFileSync(summary(name), 'utf8'));
  } catch {
    return null; // the run ended before its reporter wrote (a crash or a config error): counted as a failure below
  }
};
const parts = [read('slow'), read('unit')];
rmSync(tmp, { recursive: true, force: true });
const total = { passed: 0, failed: 0, skipped: 0 };
const slowest = [];
for (const p of parts) {
  if (p === null) {
    total.failed++;
    continue;
  }
  total.passed += p.passed;
  total.failed += p.failed;
  total.skipped += p.skipped;
  slowest.push(...p.slowest);
}
slowest.sort((a, b) => b.ms - a.ms);
process.stdout.write('\nslowest test files:\n');
for (const s of slowest.slice(0, 10)) process.stdout.write(`  ${(s.ms / 1000).toFixed(1).padStart(7)} s  ${s.file}\n`);
process.stdout.write(`\nboth projects: ${((Date.now() - started) / 1000).toFixed(0)} s wall\n`);
process.stdout.write(`\nvitest: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped\n`);
process.exit(slowCode !== 0 || unitCode !== 0 || total.failed > 0 ? 1 : 0);
