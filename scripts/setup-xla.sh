#!/usr/bin/env bash
# Installs the real XLA (jax and jaxlib, pinned in test/xla/requirements.txt) into a virtual
# environment outside the checkout, for the test layer that makes XLA the judge of our diagnostics.
# Safe to run again: skipped when the environment already holds these pins.
# Without python3 or pip it says so and exits 0; the XLA test layer then reports that it did not run
# (and fails under CI=true, where it must run).
set -euo pipefail
cd "$(dirname "$0")/.."

venv="${XLA_LENS_XLA_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/xla-layout-lens/xla-venv}"
stamp="$venv/.requirements"
if [ -f "$stamp" ] && cmp -s test/xla/requirements.txt "$stamp"; then
  echo "setup-xla: $venv holds $(grep -E '^jaxlib==' test/xla/requirements.txt)"
  exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
  echo "setup-xla: no python3 on this machine: the real-XLA test layer will not run" >&2
  exit 0
fi
started=$(date +%s)
rm -rf "$venv"
log=$(mktemp)
# pip's retries of unreachable mirrors are noise when it succeeds; its log is shown when it fails.
if ! python3 -m venv "$venv" >"$log" 2>&1 ||
  ! "$venv/bin/pip" install --disable-pip-version-check -r test/xla/requirements.txt >>"$log" 2>&1; then
  tail -n 30 "$log" >&2
  echo "setup-xla: could not install jax/jaxlib into $venv: the real-XLA test layer will not run" >&2
  rm -rf "$venv" "$log"
  exit 0
fi
rm -f "$log"
cp test/xla/requirements.txt "$stamp"
echo "setup-xla: installed $(grep -E '^jaxlib==' test/xla/requirements.txt) into $venv in $(($(date +%s) - started))s"
