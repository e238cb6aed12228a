#!/usr/bin/env bash
# Every CLI output on every trace fixture, written to one folder, so a refactor can be shown to
# change no output byte: run it before (`scripts/output-snapshot.sh /tmp/before`) and after
# (`… /tmp/after`), then `diff -r /tmp/before /tmp/after`.
#
# Covers report (text, json, csv, html), diagnose (text, json), allocs (type, stack, json), log
# (text, json), events (text, json) and compare on each trace file, and the same commands on the
# session each one imports into a fresh database (`--session`). Lines that carry wall-clock time
# or paths of this run (the import summary's timing, the database path) are left out by the
# commands themselves or filtered below.
set -uo pipefail
out="${1:?usage: output-snapshot.sh OUT_DIR [FIXTURE_GLOB]}"
cd "$(dirname "$0")/.."
root="$PWD"
bin="node $root/bin/gcscope.mjs"
mkdir -p "$out"
db="$(mktemp -d)/snap.db"
glob="${2:-*}"
prev=""
for f in test/fixtures/traces/$glob; do
  case "$f" in *.nettrace|*.netperf|*.zip) ;; *) continue ;; esac
  n="$(basename "$f")"
  o="$out/$n"
  mkdir -p "$o"
  run() { # name, args…
    local name="$1"; shift
    $bin "$@" >"$o/$name.out" 2>"$o/$name.err"; echo "exit $?" >>"$o/$name.out"
  }
  run events events "$f"
  run events-json events "$f" --json
  run report report "$f" --all
  run report-json report "$f" --format json
  run report-csv report "$f" --format csv
  run report-html report "$f" --format html
  run report-nostacks report "$f" --no-stacks --format json
  run diagnose diagnose "$f" --explain
  run diagnose-json diagnose "$f" --format json
  run allocs allocs "$f"
  run allocs-stack allocs "$f" --by stack
  run allocs-json allocs "$f" --json
  run log log "$f"
  run log-json log "$f" --json
  if [ -n "$prev" ]; then run compare compare "$prev" "$f" --format json; fi
  prev="$f"
  # The stored session of the same file.
  $bin import "$f" --db "$db" --json >"$o/import.json" 2>"$o/import.err"; echo "exit $?" >>"$o/import.json"
  id="$(node -e 'try{const j=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8").split("\nexit")[0]);console.log(j.sessionId??j.id??"")}catch{console.log("")}' "$o/import.json")"
  # The import summary carries its own timing: keep only the lines without it.
  node -e 'const fs=require("fs");const p=process.argv[1];const t=fs.readFileSync(p,"utf8");fs.writeFileSync(p,t.replace(/"(elapsedMs|seconds|elapsed|durationMs|importMs|path|db|rawTracePath|importedAt|createdAt)":[^,}]*,?/g,""))' "$o/import.json"
  if [ -n "$id" ]; then
    run s-report report --session "$id" --db "$db" --all
    run s-report-json report --session "$id" --db "$db" --format json
    run s-report-csv report --session "$id" --db "$db" --format csv
    run s-report-html report --session "$id" --db "$db" --format html
    run s-diagnose-json diagnose --session "$id" --db "$db" --format json
    run s-allocs allocs --session "$id" --db "$db"
    run s-allocs-stack allocs --session "$id" --db "$db" --by stack
    run s-log log --session "$id" --db "$db"
    run s-compare compare "$f" --session "$id" --db "$db" --format json
  fi
done
rm -rf "$(dirname "$db")"
# Outputs of a stored session name the trace it came from: make them the same wherever the
# checkout is.
# (Only the fixtures' path: a trace's own command line may name another checkout.)
grep -rlF "$root/test/fixtures/" "$out" | while read -r f; do sed -i "s#$root/test/fixtures/#<checkout>/test/fixtures/#g" "$f"; done
