#!/usr/bin/env bash
# The image's Node line (22 LTS, .nvmrc) in CI: Node 22 from the npm registry (the `node` package
# brings the binary), cached between runs; prints the version it used, runs the unit suite on it and
# boots the built service (dist/, run `npm run build` first) on it against DATABASE_URL / REDIS_URL
# until /health answers 200, then stops it with SIGTERM.
# The unit specs that open an SQLite database are left to the main Node run: better-sqlite3 is a
# native module compiled for the Node that ran `npm ci`.
set -euo pipefail
cd "$(dirname "$0")/.."

NODE22_VERSION=22.23.3
cache="${VAC_CI_CACHE:-$HOME/.cache/vac-ci}/node-$NODE22_VERSION"
node22="$cache/node_modules/.bin/node"
if [ ! -x "$node22" ]; then
  mkdir -p "$cache"
  npm install --prefix "$cache" --no-save --no-audit --no-fund --no-package-lock "node@$NODE22_VERSION" >/dev/null
fi
echo "Node for this step: $("$node22" --version) (main CI steps: $(node --version))"

# Found, not listed: every spec that builds a DataSource of its own opens SQLite.
mapfile -t sqlite_specs < <(grep -rl "new DataSource(" src --include='*.spec.ts')
"$node22" node_modules/.bin/jest --selectProjects unit \
  --testPathIgnorePatterns src/config/app-config.spec.ts "${sqlite_specs[@]}"

port="$(node -e "const s=require('net').createServer().listen(0,()=>{console.log(s.address().port);s.close()})")"
log="$(mktemp)"
PORT="$port" LOG_FORMAT=json "$node22" dist/main.js >"$log" 2>&1 &
pid=$!
for _ in $(seq 1 90); do
  if curl -sf "http://127.0.0.1:$port/health" >/dev/null; then break; fi
  if ! kill -0 "$pid" 2>/dev/null; then cat "$log" >&2; exit 1; fi
  sleep 1
done
curl -sf "http://127.0.0.1:$port/health" >/dev/null || { cat "$log" >&2; kill "$pid"; exit 1; }
echo "built service on $("$node22" --version): /health 200"
kill -TERM "$pid"
wait "$pid"
rm -f "$log"
