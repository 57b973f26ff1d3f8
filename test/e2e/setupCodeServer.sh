#!/usr/bin/env bash
# Installs what the real-VS-Code tests need, offline-safe (only apt and the npm registry are used):
#   - Debian packages: chromium, fonts-dejavu-core, ripgrep, libkrb5-dev, bubblewrap (run_command's
#     sandbox) (only those that are missing);
#   - code-server 4.100.3 (VS Code 1.100.3, needs Node 20) into a cache folder outside the repo.
# Idempotent: a marker file makes later runs a no-op. See test/e2e/README.md and docs/testing.md.
#
# Environment:
#   MASSGEN_E2E_CACHE   cache root (default: $HOME/.cache/massgen-e2e)
# Prints the code-server install folder on its last line as `code-server: <dir>`.
set -euo pipefail

CS_VERSION=4.100.3
# code-server 4.100.3's lib/vscode/npm-shrinkwrap.json pins @vscode/ripgrep 1.15.11, whose
# lib/postinstall.js has `const VERSION = 'v13.0.0-10'` (checked with `npm pack` on both packages).
RG_PKG_VERSION=1.15.11
RG_ASSET_VERSION=v13.0.0-10
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

# --- code-server -------------------------------------------------------------------------------
mkdir -p "$CACHE_ROOT"
exec 9>"$CACHE_ROOT/.lock"
flock 9 # one installer at a time (parallel CI jobs on one cache)

if [ -f "$MARKER" ] && [ -x "$CS_DIR/node_modules/.bin/code-server" ]; then
	log "code-server $CS_VERSION already installed ($(cat "$MARKER"))"
else
	node_major=$(node -p 'process.versions.node.split(".")[0]')
	if [ "$node_major" != 20 ]; then
		log "code-server $CS_VERSION needs Node 20 (its postinstall refuses other majors); found $(node -v)"
		exit 1
	fi
	t=$(date +%s.%N)
	rm -rf "$CS_DIR"
	mkdir -p "$CS_DIR"
	printf '{"name":"massgen-e2e-code-server","private":true}\n' >"$CS_DIR/package.json"

	# @vscode/ripgrep's postinstall downloads from api.github.com unless it finds this cached asset
	# in os.tmpdir(); seed it with Debian's rg (top-level entry `rg`) in a private TMPDIR.
	case "$(uname -m)" in
	x86_64) rg_target=x86_64-unknown-linux-musl ;;
	aarch64 | arm64) rg_target=aarch64-unknown-linux-musl ;;
	*) log "unsupported architecture $(uname -m)"; exit 1 ;;
	esac
	export TMPDIR="$CACHE_ROOT/tmp"
	rg_cache="$TMPDIR/vscode-ripgrep-cache-$RG_PKG_VERSION"
	mkdir -p "$rg_cache"
	tar czf "$rg_cache/ripgrep-$RG_ASSET_VERSION-$rg_target.tar.gz" -C "$(dirname "$(command -v rg)")" rg

	log "npm: installing code-server@$CS_VERSION into $CS_DIR"
	# unsafe_perm: postinstall.sh refuses root without it. yes: node-pty's postinstall runs `npx node-gyp`
	# (~/.npmrc may say yes=false). build_from_source: argon2/kerberos skip their doomed github.com lookups.
	(
		cd "$CS_DIR"
		npm_config_unsafe_perm=true npm_config_yes=true npm_config_build_from_source=true \
			npm install --no-audit --no-fund --no-save --loglevel=error "code-server@$CS_VERSION" >"$CS_DIR/install.log" 2>&1
	) || {
		log "npm install failed; last lines of $CS_DIR/install.log:"
		tail -n 40 "$CS_DIR/install.log" >&2
		exit 1
	}
	# --config and HOME keep `--version` from writing ~/.config/code-server/config.yaml.
	mkdir -p "$TMPDIR/home" && : >"$TMPDIR/version-check.yaml"
	version=$(HOME="$TMPDIR/home" "$CS_DIR/node_modules/.bin/code-server" --config "$TMPDIR/version-check.yaml" --version 2>&1 |
		grep -E "^$CS_VERSION " | head -n 1) || true
	if [ -z "$version" ]; then
		log "code-server --version did not report $CS_VERSION"
		exit 1
	fi
	printf '%s\n' "$version" >"$MARKER"
	log "npm: code-server $version installed in $(elapsed "$t")"
fi

log "total $(elapsed "$t_start")"
echo "code-server: $CS_DIR"
