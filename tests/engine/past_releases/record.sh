#!/usr/bin/env bash
# record.sh RELEASE_CHECKOUT NAME PORT [PYTHON]: play games on that release's own server (a SQLite
# file) with its own `cardhall arena`, then write the stored full histories to NAME.ndjson here.
# PYTHON (default: python3) needs the project's dependencies installed; the release's code comes
# from RELEASE_CHECKOUT/src. Loopback only.
set -euo pipefail
REL=$(cd "$1" && pwd); NAME=$2; PORT=$3; PY=${4:-python3}
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d); DB=$WORK/$NAME.db
trap 'kill "${SRV:-}" 2>/dev/null || true; rm -rf "$WORK"' EXIT
export PYTHONPATH=$REL/src CARDHALL_DATABASE_URL=sqlite+aiosqlite:///$DB
export CARDHALL_GUEST_RATE_LIMIT=1000/minute CARDHALL_REST_RATE_LIMIT=10000/minute
cd "$REL"
"$PY" -m cardhall serve --port "$PORT" > "$WORK/serve.log" 2>&1 &
SRV=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.2; done
arena() { "$PY" -m cardhall arena --url "http://127.0.0.1:$PORT" --concurrency 2 --turn-timeout 2 --json "$@" > /dev/null; }
arena --game soldiers_bluff --bots rule,random --games 6
arena --game palace_poker --bots rule,random,rule --games 6
arena --game bazaar_blot --bots rule,random,rule,random --games 2 --config '{"target_score": 31}'
sleep 2
kill "$SRV"; wait "$SRV" || true
"$PY" - "$DB" > "$HERE/$NAME.ndjson" <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for (history,) in db.execute("SELECT history FROM games ORDER BY ended_at"):
    print(history if isinstance(history, str) else json.dumps(history))
PY
wc -l "$HERE/$NAME.ndjson"
