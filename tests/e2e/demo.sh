# `make demo` shows the arguments the app passed: compare both sides.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip demo "$why"
	exit 0
fi
out=$(timeout 60 ./samples/demo.sh 2>&1)
rc=$?
app=$(sed -n 's/^app: request [0-9]* //p' <<<"$out" | sort)
# bpfprobe's lines: "TIME COMM PID CPU: bpf: handle_req ..."
bpf=$(sed -n 's/^.*: bpf: handle_req //p' <<<"$out" | sort)
if [ $rc -eq 0 ] && [ -n "$app" ] && [ "$app" = "$bpf" ]; then
	pass demo_fetches_app_args
else
	fail demo_fetches_app_args "exit $rc; app: $app; bpf: $bpf"
fi
