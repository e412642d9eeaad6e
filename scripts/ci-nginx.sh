#!/usr/bin/env bash
# Makes sure nginx (Debian's package) is installed and can run, for the two-gateway test behind a
# reverse proxy (tests/server/two-gateways.test.ts starts its own nginx with its own configuration).
# Installs it with apt-get when missing. Exits non-zero if it can't.
set -euo pipefail
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  echo "[ci-nginx] installing nginx with apt-get" >&2
  apt-get update -qq >&2
  # Installed only, never started as a service (policy-rc.d may refuse that, which is fine).
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >&2
fi
bin=$(command -v nginx || echo /usr/sbin/nginx)
"$bin" -v >&2
echo "$bin"
