#!/usr/bin/env bash
# Drives `bpfprobe load --json` from a script: runs samples/events.bpf.c on
# the demo app and summarizes its typed records with jq.
set -eu
cd "$(dirname "$0")/.."
# the app's own lines share stdout: keep the JSON ones
build/bpfprobe load --json --no-map-dump build/samples/events.bpf.o -- build/samples/demo_app |
	grep '^{' | jq -rs '
		[.[] | select(.type == "record" and .map == "events") | .data] as $r |
		"requests: \($r | length)",
		"total len: \($r | map(.len) | add)",
		"longest path: \($r | max_by(.path | length) | .path)",
		($r[] | "  \(.id) \(.path) len=\(.len)")'
