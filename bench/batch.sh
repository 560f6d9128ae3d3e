#!/usr/bin/env bash
# premise batch's throughput against a slow model (issue 17): PRS pull
# requests (default 100) as refs/pull/N/head, each changing four Go types
# of its own, so every PR asks the model four questions of its own (no
# cache hit between them) and has no function to run evidence rows on: the
# model is what the batch waits for. The fake endpoint answers each request
# after DELAY seconds (default 0.3). premise batch -j JOBS (default 8) runs
# with --concurrency 1, so JOBS is the only parallelism and the ideal is
# requests x DELAY / JOBS. Prints the wall time, the ideal and their ratio;
# exits 1 when the ratio is above 1.5.
#
# usage: bench/batch.sh [PRS] [JOBS] [DELAY]
set -euo pipefail
prs=${1:-100} jobs=${2:-8} delay=${3:-0.3}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/batch-bench-XXXXXX)
trap 'kill "${fake:-}" 2>/dev/null || true; [ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@premise.invalid GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@premise.invalid
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null

(cd "$here" && go build -o "$tmp/premise" ./cmd/premise)

# The endpoint: Chat Completions on a free port, DELAY seconds a reply, one
# thread a request.
cat >"$tmp/fake.py" <<'PY'
import http.server, json, sys, time
delay = float(sys.argv[1])
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        time.sleep(delay)
        body = json.dumps({"choices": [{"index": 0, "finish_reason": "stop",
            "message": {"role": "assistant", "content": "{\"items\": []}"}}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 5}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *a): pass
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
s.daemon_threads = True
print(s.server_address[1], flush=True)
s.serve_forever()
PY
python3 "$tmp/fake.py" "$delay" >"$tmp/port" &
fake=$!
for _ in $(seq 50); do [ -s "$tmp/port" ] && break; sleep 0.1; done
port=$(cat "$tmp/port")

repo="$tmp/repo"
git init -q -b main "$repo"
printf 'module example.com/bench\n\ngo 1.21\n' >"$repo/go.mod"
for n in $(seq "$prs"); do
  { printf 'package types\n'; for t in 1 2 3 4; do printf '\n// T%d_%d is a record.\ntype T%d_%d struct {\n\tA int\n}\n' "$n" "$t" "$n" "$t"; done; } >"$repo/t$n.go"
done
git -C "$repo" add -A
git -C "$repo" commit -q -m base
for n in $(seq "$prs"); do
  git -C "$repo" checkout -q -b "pr$n" main
  sed -i "s/\tA int/\tA int\n\tB$n string/" "$repo/t$n.go"
  git -C "$repo" commit -q -am "pr $n"
  git -C "$repo" update-ref "refs/pull/$n/head" HEAD
done
git -C "$repo" checkout -q main

start=$(date +%s.%N)
"$tmp/premise" batch --repo "$repo" --base main --out "$tmp/out" -j "$jobs" --concurrency 1 \
  --endpoint "http://127.0.0.1:$port/v1" --model bench --cache-dir "$tmp/cache" --quiet
end=$(date +%s.%N)
python3 - "$tmp/out/summary.json" "$start" "$end" "$delay" "$jobs" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
start, end, delay, jobs = float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
req = s["totals"]["requests"]
wall, ideal = end - start, req * delay / jobs
ratio = wall / ideal if ideal else float("inf")
print(f"premise batch: {s['totals']['prs']} PRs, {s['totals']['failed']} failed, {req} requests, -j {jobs}, {delay}s a reply")
print(f"wall {wall:.2f}s, ideal {ideal:.2f}s (requests x {delay}s / {jobs}), ratio {ratio:.2f} (must be <= 1.5)")
sys.exit(0 if ratio <= 1.5 and s["totals"]["failed"] == 0 else 1)
PY
