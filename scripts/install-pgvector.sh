#!/usr/bin/env bash
# Builds and installs pgvector into the local PostgreSQL from Debian trixie's source package
# (bookworm has no pgvector package). Idempotent; exits 0 without changes when it is present.
set -euo pipefail
pg_major="$(ls /etc/postgresql 2>/dev/null | sort -n | tail -1)"
[ -n "$pg_major" ] || { echo "no local PostgreSQL"; exit 1; }
if [ -f "/usr/share/postgresql/$pg_major/extension/vector.control" ]; then
  echo "pgvector already installed for PostgreSQL $pg_major"; exit 0
fi
src_list=/etc/apt/sources.list.d/trixie-src.sources
if [ ! -f "$src_list" ]; then
  cat > "$src_list" <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "postgresql-server-dev-$pg_major" build-essential dpkg-dev >/dev/null
work="$(mktemp -d)"
cd "$work"
apt-get source -qq pgvector >/dev/null 2>&1 || apt-get source pgvector
cd pgvector-*/
make -s PG_CONFIG="/usr/lib/postgresql/$pg_major/bin/pg_config"
make -s install PG_CONFIG="/usr/lib/postgresql/$pg_major/bin/pg_config"
echo "pgvector installed for PostgreSQL $pg_major"
