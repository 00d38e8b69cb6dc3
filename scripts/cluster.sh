#!/usr/bin/env bash
# The reference scale-out topology on loopback: a private PostgreSQL 15 with pgvector, N
# Facegate replicas sharing it and one server secret, and HAProxy in front (round robin, health
# checks on /healthz, WebSockets proxied, X-Forwarded-For set). Everything lives in one folder;
# `down` stops it all and deletes the folder, so nothing is left behind. The tests drive it.
#
#   scripts/cluster.sh up DIR [REPLICAS]   start (default 3 replicas); writes DIR/cluster.env
#   scripts/cluster.sh down DIR            stop everything and delete DIR
#   scripts/cluster.sh kill DIR I          SIGKILL replica I (1-based), no shutdown at all
#   scripts/cluster.sh stop DIR I          SIGTERM replica I and wait until it has drained
#   scripts/cluster.sh start DIR I         start replica I again and wait until HAProxy sends it traffic
#   scripts/cluster.sh rolling DIR         drain, stop and restart every replica in turn
#   scripts/cluster.sh db-stop DIR | db-start DIR   stop or start the PostgreSQL server
#
# Environment: FACEGATE_BIN (default: target/release/facegate, then target/debug/facegate) and
# any FACEGATE__… setting, passed to every replica.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"

die() { echo "cluster: $*" >&2; exit 1; }
[ $# -ge 2 ] || die "usage: $0 up|down|kill|stop|start|rolling|db-stop|db-start DIR [ARG]"
command="$1"
dir="$2"

pg_bin() { echo "/usr/lib/postgresql/$(ls /etc/postgresql 2>/dev/null | sort -n | tail -1)/bin"; }
# PostgreSQL refuses to run as root: run its tools as the postgres user then.
as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_http() { # URL SECONDS: waits for a 200
  local deadline=$((SECONDS + $2))
  until curl -fsS -o /dev/null --max-time 2 "$1" 2>/dev/null; do
    [ $SECONDS -lt $deadline ] || return 1
    sleep 0.2
  done
}
load_env() { [ -f "$dir/cluster.env" ] || die "$dir/cluster.env: no cluster there"; . "$dir/cluster.env"; }
haproxy_cmd() { # one command on HAProxy's admin socket
  python3 - "$dir/haproxy.sock" "$1" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall((sys.argv[2] + "\n").encode())
out = b""
while chunk := s.recv(65536): out += chunk
print(out.decode(), end="")
PY
}
server_status() { # replica I's status as HAProxy sees it (UP, DOWN, MAINT, DRAIN…)
  haproxy_cmd "show stat" | awk -F, -v s="r$1" '$1=="facegate" && $2==s {print $18}'
}
wait_status() { # I STATUS SECONDS
  local deadline=$((SECONDS + $3))
  until [ "$(server_status "$1")" = "$2" ]; do
    [ $SECONDS -lt $deadline ] || die "replica $1 not $2 in HAProxy within $3 s (is $(server_status "$1"))"
    sleep 0.2
  done
}

start_replica() { # I
  load_env
  local i="$1" port_var="REPLICA_${1}_PORT"
  local port="${!port_var}"
  FACEGATE__SERVER__BIND="127.0.0.1:$port" \
  FACEGATE__DATABASE__URL="$DATABASE_URL" \
  FACEGATE__SECURITY__SERVER_SECRET="$(cat "$dir/server_secret")" \
  FACEGATE__SERVER__TRUSTED_PROXIES="127.0.0.1/32" \
  FACEGATE__SERVER__PUBLIC_URL="${FACEGATE__SERVER__PUBLIC_URL:-$LB_URL}" \
    setsid "$FACEGATE_BIN" serve >>"$dir/replica-$i.log" 2>&1 &
  echo $! >"$dir/replica-$i.pid"
  wait_http "http://127.0.0.1:$port/healthz" 120 || { tail -20 "$dir/replica-$i.log" >&2; die "replica $i did not start"; }
}

stop_replica() { # I SIGNAL
  local pid_file="$dir/replica-$1.pid"
  [ -f "$pid_file" ] || return 0
  local pid; pid="$(cat "$pid_file")"
  kill "-$2" "$pid" 2>/dev/null || true
  for _ in $(seq 1 400); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
  rm -f "$pid_file"
}

case "$command" in
up)
  replicas="${3:-3}"
  [ ! -e "$dir/cluster.env" ] || die "$dir already holds a cluster"
  command -v haproxy >/dev/null || { export DEBIAN_FRONTEND=noninteractive; apt-get install -y -qq haproxy >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq haproxy >/dev/null; }; }
  command -v curl >/dev/null || apt-get install -y -qq curl >/dev/null
  bash scripts/install-pgvector.sh >/dev/null
  bin="${FACEGATE_BIN:-}"
  [ -n "$bin" ] || for candidate in "${CARGO_TARGET_DIR:-target}/release/facegate" "${CARGO_TARGET_DIR:-target}/debug/facegate"; do
    [ -x "$candidate" ] && { bin="$candidate"; break; }
  done
  [ -n "$bin" ] && [ -x "$bin" ] || die "no facegate binary: build it or set FACEGATE_BIN"
  bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
  mkdir -p "$dir"; dir="$(cd "$dir" && pwd)"
  # private PostgreSQL: its own data folder, port and socket folder
  pg_port="$(free_port)"
  mkdir -p "$dir/pg"; chown postgres "$dir" "$dir/pg" 2>/dev/null || true; chmod 755 "$dir"
  as_postgres test -x "$dir/pg" || die "the postgres user cannot reach $dir (a parent folder is private): use a folder under /tmp or /var/tmp"
  as_postgres "$(pg_bin)/initdb" -D "$dir/pg/data" -U postgres -A trust >/dev/null
  as_postgres "$(pg_bin)/pg_ctl" -D "$dir/pg/data" -l "$dir/pg/server.log" -w \
    -o "-p $pg_port -k $dir/pg -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null
  "$(pg_bin)/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -qc "CREATE DATABASE facegate" postgres
  lb_port="$(free_port)"
  {
    echo "FACEGATE_BIN='$bin'"
    echo "REPLICAS=$replicas"
    echo "PG_PORT=$pg_port"
    echo "DATABASE_URL='postgres://postgres@127.0.0.1:$pg_port/facegate'"
    echo "LB_PORT=$lb_port"
    echo "LB_URL='http://127.0.0.1:$lb_port'"
    for i in $(seq 1 "$replicas"); do echo "REPLICA_${i}_PORT=$(free_port)"; done
  } >"$dir/cluster.env"
  python3 -c 'import secrets; print(secrets.token_hex(32))' >"$dir/server_secret"
  chmod 600 "$dir/server_secret"
  load_env
  # migrate once before the replicas start (they would serialise on the migration lock anyway)
  FACEGATE__DATABASE__URL="$DATABASE_URL" FACEGATE__SECURITY__SERVER_SECRET="$(cat "$dir/server_secret")" \
    "$FACEGATE_BIN" migrate >>"$dir/migrate.log" 2>&1 || { cat "$dir/migrate.log" >&2; die "migration failed"; }
  servers=""
  for i in $(seq 1 "$replicas"); do
    port_var="REPLICA_${i}_PORT"
    servers+="    server r$i 127.0.0.1:${!port_var} check inter 500ms fall 2 rise 2"$'\n'
  done
  cat >"$dir/haproxy.cfg" <<CFG
global
    maxconn 4096
    stats socket $dir/haproxy.sock mode 600 level admin
    pidfile $dir/haproxy.pid

defaults
    mode http
    option forwardfor
    # one request per server connection: a draining replica never meets a reused idle
    # connection, and WebSocket upgrades still become tunnels
    option http-server-close
    option redispatch
    retries 3
    retry-on conn-failure empty-response response-timeout
    timeout connect 2s
    timeout client 120s
    timeout server 120s
    timeout tunnel 1h
    timeout http-request 30s

frontend facegate_in
    bind 127.0.0.1:$lb_port
    default_backend facegate

backend facegate
    balance roundrobin
    option httpchk GET /healthz
    http-check expect status 200
    http-response set-header X-Facegate-Replica %s
$servers
CFG
  haproxy -c -q -f "$dir/haproxy.cfg" || die "haproxy.cfg does not check"
  for i in $(seq 1 "$replicas"); do start_replica "$i" & done
  wait
  haproxy -D -f "$dir/haproxy.cfg"
  for i in $(seq 1 "$replicas"); do wait_status "$i" UP 30; done
  echo "cluster up: $LB_URL ($replicas replicas, PostgreSQL on port $PG_PORT)"
  ;;
down)
  [ -d "$dir" ] || exit 0
  if [ -f "$dir/cluster.env" ]; then
    . "$dir/cluster.env"
    for i in $(seq 1 "${REPLICAS:-0}"); do stop_replica "$i" KILL; done
  fi
  [ -f "$dir/haproxy.pid" ] && kill "$(cat "$dir/haproxy.pid")" 2>/dev/null || true
  [ -d "$dir/pg/data" ] && as_postgres "$(pg_bin)/pg_ctl" -D "$dir/pg/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
  ;;
kill)
  load_env; stop_replica "$3" KILL
  ;;
stop)
  load_env; stop_replica "$3" TERM
  ;;
start)
  load_env; start_replica "$3"
  haproxy_cmd "set server facegate/r$3 state ready" >/dev/null
  wait_status "$3" UP 30
  ;;
rolling)
  load_env
  for i in $(seq 1 "$REPLICAS"); do
    # stop sending it new requests, let in-flight ones finish, then stop and start it
    haproxy_cmd "set server facegate/r$i state drain" >/dev/null
    sleep 0.5
    stop_replica "$i" TERM
    start_replica "$i"
    haproxy_cmd "set server facegate/r$i state ready" >/dev/null
    wait_status "$i" UP 30
    echo "replica $i restarted"
  done
  ;;
db-stop)
  load_env; as_postgres "$(pg_bin)/pg_ctl" -D "$dir/pg/data" -m fast -w stop >/dev/null
  ;;
db-start)
  load_env
  as_postgres "$(pg_bin)/pg_ctl" -D "$dir/pg/data" -l "$dir/pg/server.log" -w \
    -o "-p $PG_PORT -k $dir/pg -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null
  ;;
*) die "unknown command $command" ;;
esac
