#!/usr/bin/env bash
# Makes sure Debian's Chromium and the CJK fonts its pages and screenshots need are installed, for the
# browser tests (tests/e2e/, through playwright-core). Installs them with apt-get when missing, so
# .ci/run counts the install as set-up, as it does PostgreSQL's and nginx's, not as test time (the e2e
# global setup installs Chromium itself when it is still missing, for `npm test` on a fresh machine).
# Prints Chromium's path. Exits non-zero if it can't.
set -euo pipefail
bin=${CHROMIUM_PATH:-/usr/bin/chromium}
missing=()
[ -x "$bin" ] || missing+=(chromium)
# Without a CJK font every Chinese character renders as a box: screenshots nobody can review.
# (The list is read whole first: `fc-list | grep -q` fails under pipefail when grep stops reading early.)
fonts=$(fc-list : family 2>/dev/null || true)
grep -qi 'Noto Sans CJK' <<<"$fonts" || missing+=(fonts-noto-cjk)
if [ ${#missing[@]} -gt 0 ]; then
  echo "[ci-chromium] installing ${missing[*]} with apt-get" >&2
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
fi
# Its version on stderr (Debian's wrapper script also prints a harmless shell warning there, left out).
"$bin" --version 2>/dev/null | sed 's/^/[ci-chromium] /' >&2
echo "$bin"
