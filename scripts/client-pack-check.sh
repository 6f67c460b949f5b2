#!/usr/bin/env bash
# The producer client as a call stack outside this repository gets it: `npm pack` of
# packages/client (which builds it), a fresh project in a temporary directory that installs the
# tarball and Bull, and one lookup through it (plain JavaScript, no TypeScript tooling) against the
# built service (`node dist/main.js`, run `npm run build` first) on a private Redis and its own
# SQLite file. The demo data comes from `npm run seed:demo` over HTTP; the strategy's endpoint is
# left closed, so the lookup answers with the strategy's fallback context.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }

work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

redis_port=$(free_port)
redis-server --bind 127.0.0.1 --port "$redis_port" --save "" --appendonly no >"$work/redis.log" 2>&1 &
pids+=("$!")

echo "1. npm pack the client into $work"
tarball=$(npm pack -s -w @voice-assistant-config/client --pack-destination "$work" | tail -1)
tar -tzf "$work/$tarball" | sort >"$work/files.txt"
for expected in package/package.json package/CHANGELOG.md package/schemas/inbound-context-lookup.schema.json \
  package/dist/packages/client/src/index.js package/dist/packages/client/src/index.d.ts; do
  grep -qx "$expected" "$work/files.txt" || { echo "$tarball lacks $expected"; exit 1; }
done
if grep -E '\.(ts)$' "$work/files.txt" | grep -v '\.d\.ts$' | grep -q .; then
  echo "$tarball ships TypeScript sources"; exit 1
fi

echo "2. a fresh project installs $tarball and bull"
bull_version=$(node -p "require('bull/package.json').version")
mkdir "$work/call-stack"
cd "$work/call-stack"
printf '{ "name": "call-stack", "version": "1.0.0", "private": true }\n' >package.json
npm install -s --no-audit --no-fund --prefer-offline "$work/$tarball" "bull@$bull_version"
cat >lookup.js <<'JS'
const { InboundContextLookupClient, QUEUES } = require('@voice-assistant-config/client');
const schema = require('@voice-assistant-config/client/schemas/inbound-context-lookup.schema.json');

async function main() {
  if (schema.$id !== `urn:voice-assistant-config:queue:${QUEUES.INBOUND_CONTEXT_LOOKUP}:v1`)
    throw new Error(`unexpected schema $id ${schema.$id}`);
  const client = InboundContextLookupClient.fromRedisUrl(process.env.REDIS_URL, {
    prefix: process.env.QUEUE_PREFIX,
  });
  try {
    const result = await client.lookup(
      { room_name: 'pack-check-room', inbound_number: '+91 80 1234 5678', caller_number: '+919900011122' },
      { waitMs: 15000 },
    );
    console.log(JSON.stringify(result));
  } finally {
    await client.close();
  }
}
main().catch((error) => {
  console.error(error);
  process.exit(1);
});
JS
cd "$root"

echo "3. the built service on Redis port $redis_port"
export REDIS_URL="redis://127.0.0.1:$redis_port"
export QUEUE_PREFIX="pack-check"
export ADMIN_API_KEY="pack-check-admin-key-$RANDOM$RANDOM-0123456789"
export WEBHOOK_ALLOW_PRIVATE_NETWORKS=true
export SQLITE_PATH="$work/service.sqlite"
export LOG_LEVEL=warn
export PORT; PORT=$(free_port)
unset DATABASE_URL REDIS_CLUSTER_NODES
node dist/main.js >"$work/service.log" 2>&1 &
pids+=("$!")
for _ in $(seq 1 240); do
  curl -sf "localhost:$PORT/health" >/dev/null && break
  kill -0 "${pids[-1]}" 2>/dev/null || { cat "$work/service.log"; exit 1; }
  sleep 0.5
done
curl -sf "localhost:$PORT/health" >/dev/null || { echo "the service did not come up"; tail -20 "$work/service.log"; exit 1; }
closed_port=$(free_port)
npm run -s seed:demo -- --url "http://localhost:$PORT" --context-url "http://127.0.0.1:$closed_port/context" >/dev/null

echo "4. one lookup through the installed package"
(cd "$work/call-stack" && node lookup.js) | tee "$work/lookup.json"
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const ok = r.assistant_name === "Demo receptionist" && typeof r.prompt === "string" && r.prompt.length > 0 &&
    typeof r.log_id === "string";
  if (!ok) { console.error("unexpected lookup result"); process.exit(1); }
  console.log(`client package OK: lookup answered (${r.status}, fallback_used ${r.fallback_used})`);
' "$work/lookup.json"
