#!/usr/bin/env bash
# A three-master Redis Cluster on loopback ports, from the machine's redis-server, for tests:
#   scripts/redis-cluster.sh start <dir>   # prints REDIS_CLUSTER_NODES=127.0.0.1:7101,...
#   scripts/redis-cluster.sh stop <dir>
# Ports: REDIS_CLUSTER_PORTS (default "7101 7102 7103"). Each node keeps its pid file, log and
# nodes.conf under <dir>/<port>; nothing is persisted (no RDB, no AOF). `stop` ends only the
# servers whose pid files are in <dir>, then removes <dir>.
set -euo pipefail

usage() { echo "usage: $0 start|stop <dir>" >&2; exit 2; }
[ $# -eq 2 ] || usage
command=$1
dir=$2
read -r -a ports <<<"${REDIS_CLUSTER_PORTS:-7101 7102 7103}"

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

start() {
  mkdir -p "$dir"
  local nodes=() port
  for port in "${ports[@]}"; do
    if port_open "$port"; then
      echo "port $port is already in use" >&2
      exit 1
    fi
    mkdir -p "$dir/$port"
    redis-server --port "$port" --bind 127.0.0.1 --daemonize yes \
      --cluster-enabled yes --cluster-config-file "$dir/$port/nodes.conf" \
      --cluster-node-timeout 2000 --save "" --appendonly no --dir "$dir/$port" \
      --pidfile "$dir/$port/redis.pid" --logfile "$dir/$port/redis.log"
    nodes+=("127.0.0.1:$port")
  done
  for port in "${ports[@]}"; do
    for _ in $(seq 1 50); do
      redis-cli -p "$port" ping >/dev/null 2>&1 && break
      sleep 0.1
    done
  done
  redis-cli --cluster create "${nodes[@]}" --cluster-replicas 0 --cluster-yes >"$dir/create.log"
  for _ in $(seq 1 100); do
    if redis-cli -p "${ports[0]}" cluster info | grep -q 'cluster_state:ok'; then
      (IFS=,; echo "REDIS_CLUSTER_NODES=${nodes[*]}")
      return 0
    fi
    sleep 0.1
  done
  echo "the cluster did not reach cluster_state:ok (see $dir/*/redis.log)" >&2
  exit 1
}

stop() {
  [ -d "$dir" ] || return 0
  local port pid
  for port in "${ports[@]}"; do
    [ -f "$dir/$port/redis.pid" ] || continue
    pid=$(cat "$dir/$port/redis.pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
  done
  rm -rf "$dir"
}

case "$command" in
  start) start ;;
  stop) stop ;;
  *) usage ;;
esac
