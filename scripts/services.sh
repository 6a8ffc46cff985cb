#!/usr/bin/env bash
# Makes sure PostgreSQL and NATS JetStream answer at the configured addresses.
#
# When one is not reachable, this starts a private instance from Debian's packages (installing
# `postgresql` or `nats-server` if missing) with its data under .data/ (ignored by git). A system
# instance that is merely stopped (as on the developers' machines) is started as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
data="$root/.data"
pg_host=127.0.0.1
pg_port=${BALCAO_PG_PORT:-5432}
nats_port=${BALCAO_NATS_PORT:-4222}

say() { printf 'services: %s\n' "$*" >&2; }

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

apt_install() {
  if [ "$(id -u)" != 0 ]; then say "cannot install $* without root"; exit 1; fi
  if [ -z "${apt_updated:-}" ]; then apt-get update -qq >/dev/null; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

start_postgres() {
  if port_open "$pg_port"; then return; fi
  # A system cluster that is only stopped: start it as it is.
  if command -v pg_lsclusters >/dev/null && [ -n "$(pg_lsclusters -h 2>/dev/null | awk -v p="$pg_port" '$3==p')" ]; then
    read -r ver name _ < <(pg_lsclusters -h | awk -v p="$pg_port" '$3==p')
    say "starting system PostgreSQL cluster $ver/$name"
    pg_ctlcluster --skip-systemctl-redirect "$ver" "$name" start || true
  else
    command -v pg_config >/dev/null || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || apt_install postgresql
    bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
    mkdir -p "$data"
    if [ ! -f "$data/pg/PG_VERSION" ]; then
      say "creating a private PostgreSQL cluster in .data/pg"
      mkdir -p "$data/pg"
      if [ "$(id -u)" = 0 ]; then chown postgres:postgres "$data/pg"; fi
      as_pg "$bin/initdb" -D "$data/pg" -A trust -U postgres -E UTF8 --locale=C.UTF-8 >/dev/null
    fi
    say "starting private PostgreSQL on $pg_host:$pg_port"
    as_pg "$bin/pg_ctl" -D "$data/pg" -l "$data/pg.log" -w \
      -o "-c listen_addresses=$pg_host -c port=$pg_port -c unix_socket_directories=/tmp -c max_connections=300" start >/dev/null
  fi
  for _ in $(seq 1 60); do port_open "$pg_port" && return; sleep 0.5; done
  say "PostgreSQL did not come up on port $pg_port"; exit 1
}

as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

start_nats() {
  if port_open "$nats_port"; then return; fi
  command -v nats-server >/dev/null || [ -x /usr/sbin/nats-server ] || apt_install nats-server
  server=$(command -v nats-server || echo /usr/sbin/nats-server)
  mkdir -p "$data/nats"
  say "starting private NATS with JetStream on 127.0.0.1:$nats_port (data in .data/nats)"
  setsid "$server" -a 127.0.0.1 -p "$nats_port" -js -sd "$data/nats" -l "$data/nats.log" </dev/null >/dev/null 2>&1 &
  for _ in $(seq 1 60); do port_open "$nats_port" && return; sleep 0.5; done
  say "NATS did not come up on port $nats_port"; exit 1
}

start_postgres
start_nats
say "PostgreSQL on $pg_host:$pg_port and NATS on 127.0.0.1:$nats_port are up"
