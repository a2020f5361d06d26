#!/usr/bin/env bash
# The one command that sets up a fresh machine and runs every test (what CI runs).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
npm test
