# Helpers of the cache tests (tests/e2e/dwarf_index.sh, resolution_cache.sh,
# unit_window.sh source this file after tests/lib.sh; run on its own it does
# nothing). Each resolves with a cache directory of its own and compares
# the answers with what `resolve --no-cache` gives.
[ "${BASH_SOURCE[0]}" = "$0" ] && exit 0

# cache_setup: $tmp (world-readable, removed at exit unless KEEP is set)
# and XDG_CACHE_HOME=$tmp/cache
cache_setup() {
	tmp=$(mktemp -d)
	chmod 755 "$tmp"
	trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
	export XDG_CACHE_HOME=$tmp/cache
}

# said NAME TEXT: the messages of the resolve called NAME ($tmp/NAME.err)
# contain TEXT
said() { grep -q -- "$2" "$tmp/$1.err"; }

# check NAME WHY CONDITION...: PASS when the condition holds, else FAIL
# with WHY and the messages of the last resolve ($last, set by the script)
last=
check() {
	local name=$1 why=$2
	shift 2
	if "$@"; then
		pass "$name"
	else
		fail "$name" "$why: $(head -c 1500 "$tmp/$last.err" 2>/dev/null)"
	fi
}
