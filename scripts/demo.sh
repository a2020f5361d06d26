#!/usr/bin/env bash
# The main job: set up a fresh machine, build, show the command-line tool on the bundled
# examples, package the extension, and start a real VS Code (code-server) in the browser on
# 127.0.0.1 with the .vsix installed and the examples folder open. Ctrl-C stops it.
#
#   PORT=8080 bash scripts/demo.sh        # then open http://127.0.0.1:8080
#   DEMO_NO_SERVER=1 bash scripts/demo.sh # everything but the editor (for terminals and CI)
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
npm run --silent build

cli() { echo; echo "\$ xla-layout $*"; node dist/cli.js "$@" || true; }
cli explain 'f32[1024,4]{1,0:T(8,128)}'
cli index 'f32[3,5]{1,0:T(2,2)}' 2,3
cli map 'f32[4,8]{1,0:T(2,4)(2,1)}'
cli report examples/module_0001.jit_train_step.after_optimizations.txt --top 8
cli check examples/invalid_layouts.hlo
cli oom examples/oom-hbm.log

[ -n "${DEMO_NO_SERVER:-}" ] && exit 0

npm run --silent package
cs_dir=$(bash scripts/install-code-server.sh | sed -n 's/^CODE_SERVER_DIR=//p')
entry="$cs_dir/node_modules/code-server/out/node/entry.js"
state=.cache/demo
mkdir -p "$state/user/User" "$state/extensions"
cat > "$state/user/User/settings.json" <<'JSON'
{
  "security.workspace.trust.enabled": false,
  "telemetry.telemetryLevel": "off",
  "workbench.startupEditor": "none",
  "update.mode": "none",
  "extensions.autoCheckUpdates": false,
  "git.openRepositoryInParentFolders": "never"
}
JSON
export XDG_CONFIG_HOME="$PWD/$state/config"
node "$entry" --extensions-dir "$state/extensions" --install-extension dist/xla-layout-lens.vsix --force
port="${PORT:-8080}"
echo
echo "XLA Layout Lens is running in a real VS Code: open http://127.0.0.1:$port/?folder=$PWD/examples"
echo "(open examples/tpu_padding.hlo, hover a shape, run 'XLA Layout: Open Visualizer'; Ctrl-C to stop)"
exec node "$entry" --auth none --bind-addr "127.0.0.1:$port" --disable-telemetry --disable-update-check \
  --user-data-dir "$state/user" --extensions-dir "$state/extensions" "$PWD/examples"
