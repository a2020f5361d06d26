#!/usr/bin/env bash
# Installs the Debian packages the test suites need, idempotently:
#   chromium          - the browser playwright-core drives for the code-server end-to-end test
#   ripgrep           - code-server's search needs an `rg` binary; @vscode/ripgrep cannot download one here
#   libkrb5-dev       - gssapi headers so code-server's `kerberos` native module can be rebuilt
#   neovim            - used by the other-editors test suite
#   emacs-nox, elpa-eglot - Emacs 28 and its LSP client, the other editor of that suite
#   fonts-dejavu-core - a real font so workbench screenshots are readable
#   build-essential, python3 - node-gyp rebuilds of code-server's native modules
# Runs `apt-get update` at most once, and only when something is missing; a no-op otherwise.
set -euo pipefail

PACKAGES=(chromium ripgrep libkrb5-dev neovim emacs-nox elpa-eglot fonts-dejavu-core build-essential python3 ca-certificates)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-system-deps: all present (${PACKAGES[*]})"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "install-system-deps: need root (or sudo) to install: ${missing[*]}" >&2
    exit 1
  fi
fi

echo "install-system-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "install-system-deps: done"
