#!/usr/bin/env bash
# Installs code-server (a real VS Code workbench + Node extension host served to a browser) into a
# cache folder outside the repository, for the end-to-end and extension-host tests.
#
# Why the manual steps: code-server's own postinstall cannot run offline here. @vscode/ripgrep wants to
# download a binary (we copy Debian's /usr/bin/rg instead) and `kerberos` needs gssapi headers
# (libkrb5-dev). See shared/notes/real-vscode-on-this-machine.md (beside the checkout). 4.100.3 is the newest release
# whose engines.node accepts Node 20.
#
# Idempotent: a stamp file written as the very last step marks a complete install; with it present the
# script exits at once. A half-finished install (no stamp) is wiped and redone.
#
# Prints the install folder on the last line of stdout as `CODE_SERVER_DIR=<path>`.
set -euo pipefail

VERSION="${CODE_SERVER_VERSION:-4.100.3}"
ROOT="${XLA_LENS_CODE_SERVER_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/xla-layout-lens/code-server}"
DIR="$ROOT/$VERSION"
STAMP="$DIR/.install-complete"
# Other tools on this machine serialise npm installs through this lock; honour it when flock exists.
LOCK="${XLA_LENS_NPM_LOCK:-/tmp/npm.lock}"

if [ -f "$STAMP" ]; then
  echo "install-code-server: code-server $VERSION already installed in $DIR"
  echo "CODE_SERVER_DIR=$DIR"
  exit 0
fi

start=$(date +%s)
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "$here/install-system-deps.sh"

npm_locked() {
  if command -v flock >/dev/null 2>&1; then flock "$LOCK" npm "$@"; else npm "$@"; fi
}

step() { echo "install-code-server: [$(( $(date +%s) - start ))s] $*"; }

rm -rf "$DIR"
mkdir -p "$DIR"
cd "$DIR"
# A private package.json keeps npm from walking up into some enclosing project.
printf '{ "name": "xla-layout-lens-code-server", "private": true }\n' > package.json

step "npm install --ignore-scripts code-server@$VERSION"
npm_locked install --no-audit --no-fund --ignore-scripts "code-server@$VERSION"

VS="$DIR/node_modules/code-server/lib/vscode"
step "installing VS Code's own dependencies"
cd "$VS"
npm_locked install --no-audit --no-fund --unsafe-perm --omit=dev --ignore-scripts
mkdir -p node_modules/@vscode/ripgrep/bin
cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
step "rebuilding VS Code's native modules"
npm_config_yes=true npm_locked rebuild --unsafe-perm @parcel/watcher @vscode/deviceid @vscode/spdlog kerberos native-watchdog node-pty
ln -sfn node_modules node_modules.asar

step "installing the built-in extensions' dependencies"
cd "$VS/extensions"
npm_locked install --no-audit --no-fund --unsafe-perm --omit=dev

# argon2 (password hashing, loaded at start-up even with --auth none) is hoisted next to code-server.
step "rebuilding argon2"
cd "$DIR"
npm_locked rebuild --unsafe-perm argon2

# Smoke check: the entry point must load its native modules and print its version. A throwaway
# XDG_CONFIG_HOME keeps it from writing ~/.config/code-server/config.yaml.
smoke_config="$(mktemp -d)"
XDG_CONFIG_HOME="$smoke_config" node "$DIR/node_modules/code-server/out/node/entry.js" --version
rm -rf "$smoke_config"

date -u +%FT%TZ > "$STAMP"
step "done: code-server $VERSION installed in $DIR in $(( $(date +%s) - start ))s"
echo "CODE_SERVER_DIR=$DIR"
