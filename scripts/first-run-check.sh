#!/usr/bin/env bash
# Follows README's "First run" from zero to an answered lookup, as a new developer would:
# npm start (it builds the service, then starts it), the demo context endpoint, npm run seed:demo, then examples/lookup-client.ts.
# Then stops npm start the way Ctrl-C does (SIGINT to its process group) and checks nothing is
# left listening; and starts it again and stops it the way a supervisor does (SIGTERM to the npm
# process alone), which must end the service too. Uses its own SQLite file and its own queue prefix on the local Redis.
set -euo pipefail
cd "$(dirname "$0")/.."

free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

work=$(mktemp -d)
export ADMIN_API_KEY="first-run-admin-key-$RANDOM$RANDOM-0123456789"
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
export WEBHOOK_ALLOW_PRIVATE_NETWORKS=true
export QUEUE_PREFIX="first-run-$$"
export SQLITE_PATH="$work/first-run.sqlite"
export LOG_FORMAT=json
export PORT; PORT=$(free_port)
export DEMO_CONTEXT_PORT; DEMO_CONTEXT_PORT=$(free_port)
unset DATABASE_URL

pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -TERM -- "-$pid" 2>/dev/null || true; done
  rm -rf "$work"
  # This run's queues and counters on the shared Redis.
  node -e '
    const redis = new (require("ioredis"))(process.env.REDIS_URL);
    redis.keys(`${process.env.QUEUE_PREFIX}:*`)
      .then((keys) => keys.length && redis.del(...keys))
      .finally(() => redis.disconnect());
  ' || true
}
trap cleanup EXIT

echo "1. npm start (SQLite file, Bull on the local Redis) on port $PORT"
setsid npm start >"$work/service.log" 2>&1 &
service=$!; pids+=("$service")
for _ in $(seq 1 360); do
  curl -sf "localhost:$PORT/health" >/dev/null && break
  kill -0 "$service" 2>/dev/null || { cat "$work/service.log"; exit 1; }
  sleep 0.5
done
curl -sf "localhost:$PORT/health" >/dev/null || { echo "the service did not come up"; cat "$work/service.log"; exit 1; }

echo "2. npm run demo:context on port $DEMO_CONTEXT_PORT"
setsid npm run demo:context >"$work/context.log" 2>&1 &
pids+=("$!")
for _ in $(seq 1 60); do port_open "$DEMO_CONTEXT_PORT" && break; sleep 0.5; done

echo "3. npm run seed:demo"
npm run -s seed:demo -- --url "http://localhost:$PORT" \
  --context-url "http://127.0.0.1:$DEMO_CONTEXT_PORT/context" | tee "$work/seed.txt"

echo "4. the example lookup"
npx ts-node --transpile-only examples/lookup-client.ts \
  --inbound-number "+91 80 1234 5678" --caller "+919900011122" | tee "$work/lookup.json"
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const ok = r.status === "success" && r.fallback_used === false && r.prompt.includes("Asha") &&
    r.prompt.includes("+919900011122");
  if (!ok) { console.error("unexpected lookup result"); process.exit(1); }
  console.log("lookup answered: " + r.prompt);
' "$work/lookup.json"

echo "5. Ctrl-C on npm start (SIGINT to its process group) stops everything"
stopped_at=$(date +%s%N)
kill -INT -- "-$service"
for _ in $(seq 1 60); do
  pgrep -g "$service" >/dev/null || break
  sleep 0.25
done
if port_open "$PORT" || pgrep -g "$service" >/dev/null; then
  echo "npm start left something running 15 s after SIGINT:"; pgrep -a -g "$service" || true
  tail -5 "$work/service.log"; exit 1
fi
grep -q '"msg":"Shutting down on SIGINT: waiting for in-flight HTTP requests' "$work/service.log" &&
  grep -q '"msg":"Stopped [0-9]* ms after SIGINT' "$work/service.log" ||
  { echo "npm start did not log its shutdown:"; tail -5 "$work/service.log"; exit 1; }
echo "first run OK (npm start stopped $(( ($(date +%s%N) - stopped_at) / 1000000 )) ms after SIGINT)"

echo "6. SIGTERM to the npm process alone (as a supervisor or kill <pid> sends it) stops the service"
setsid npm start >"$work/service-term.log" 2>&1 &
service=$!; pids+=("$service")
for _ in $(seq 1 360); do
  curl -sf "localhost:$PORT/health" >/dev/null && break
  kill -0 "$service" 2>/dev/null || { cat "$work/service-term.log"; exit 1; }
  sleep 0.5
done
curl -sf "localhost:$PORT/health" >/dev/null || { echo "the service did not come up"; cat "$work/service-term.log"; exit 1; }
stopped_at=$(date +%s%N)
kill -TERM "$service"
for _ in $(seq 1 60); do
  pgrep -g "$service" >/dev/null || break
  sleep 0.25
done
if port_open "$PORT" || pgrep -g "$service" >/dev/null; then
  echo "npm start left something running 15 s after SIGTERM to the npm process:"; pgrep -a -g "$service" || true
  tail -5 "$work/service-term.log"; exit 1
fi
grep -q '"msg":"Stopped [0-9]* ms after SIGTERM' "$work/service-term.log" ||
  { echo "npm start did not log its shutdown:"; tail -5 "$work/service-term.log"; exit 1; }
echo "npm start stopped $(( ($(date +%s%N) - stopped_at) / 1000000 )) ms after SIGTERM to the npm process"
