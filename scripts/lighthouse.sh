#!/usr/bin/env bash
# Audits the public pages, a payer page and two signed-in dashboard screens with Lighthouse in
# Debian's Chromium against a release build of Balcão and of the dashboard, on its own database and
# stream, then cleans up. Figures go to BENCHMARKS.md by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/services.sh
command -v chromium >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }
cargo build --release -p gateway --bin balcao
(cd webapp && { [ -d node_modules ] || npm install --no-audit --no-fund; } && npm run build)
port=${LIGHTHOUSE_PORT:-8181}
db=balcao_lighthouse
export DATABASE_URL=postgres://postgres@127.0.0.1:5432/$db
# `localhost`, as the browser tests use: the signed-in audits need the `Secure` refresh cookie, which
# Chromium keeps over plain HTTP for localhost.
export BALCAO_LISTEN=127.0.0.1:$port BALCAO_SITE_URL=http://localhost:$port BALCAO_OPS_LISTEN=127.0.0.1:0
export BALCAO_NATS_STREAM=LIGHTHOUSE_EVENTS BALCAO_NATS_SUBJECT_PREFIX=lighthouse.events RUST_LOG=warn
./target/release/balcao all &
server=$!
cleanup() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  psql -h 127.0.0.1 -U postgres -qc "drop database if exists $db with (force)" >/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 1 60); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.5; done
cd tests/browser
[ -d node_modules ] || npm install --no-audit --no-fund
CHROME_PATH=/usr/bin/chromium node lighthouse.mjs "http://localhost:$port"
