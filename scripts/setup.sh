#!/usr/bin/env bash
# Installs everything the project needs on a fresh machine, and nothing twice:
# Debian packages (Chromium, ripgrep, Neovim, ...), npm packages, the real XLA (jax and jaxlib in a
# virtual environment) and code-server (a real VS Code).
# Safe to run again; each step is skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -x scripts/install-system-deps.sh ] || [ -f scripts/install-system-deps.sh ]; then
  bash scripts/install-system-deps.sh
fi

# npm ci only when the lock file changed since the last install.
stamp=node_modules/.install-stamp
if [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp"; then
  npm ci --no-audit --no-fund
  cp package-lock.json "$stamp"
fi

# The real XLA (jax, jaxlib) that judges our diagnostics in test/xla.
bash scripts/setup-xla.sh

if [ -f scripts/install-code-server.sh ]; then
  bash scripts/install-code-server.sh
fi
