#!/usr/bin/env bash
# Runs the demo: bpfprobe loads samples/demo.bpf.c's program onto demo_app's
# handle_req, fetching req->hdr->len, conn->fd and retries from DWARF.
set -eu
cd "$(dirname "$0")/.."
echo "$ build/bpfprobe load build/samples/demo.bpf.o -- build/samples/demo_app"
exec build/bpfprobe load build/samples/demo.bpf.o -- build/samples/demo_app
