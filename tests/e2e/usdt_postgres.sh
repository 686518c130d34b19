# SDT markers in a real server: PostgreSQL 15, started here as the
# postgres user in a temporary data directory on a Unix socket (no TCP).
# query__start gives the query strings psql sent; checkpoint__done, whose
# operands are symbols off %rip (40+CheckpointStats(%rip), NBuffers(%rip):
# what libbpf's USDT parser cannot read), gives the buffers the
# checkpoint wrote, which the server logs itself, and NBuffers, which
# pg_settings gives. Both markers have semaphores.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

PG=/usr/lib/postgresql/15/bin
why=$(uprobe_unavailable)
if [ -n "$why" ]; then
	skip usdt_postgres "$why"
	exit 0
fi
if [ ! -x $PG/postgres ] || ! id postgres >/dev/null 2>&1; then
	fail usdt_postgres "postgresql-15 is not installed (scripts/deps.sh installs it)"
	exit 0
fi

tmp=$(mktemp -d)
chmod 755 "$tmp"
pg() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }
stop() {
	kill -INT ${tracer:-} ${tracer2:-} 2>/dev/null && wait ${tracer:-} ${tracer2:-} 2>/dev/null
	pg $PG/pg_ctl -D "$tmp/data" -m immediate stop >/dev/null 2>&1
	rm -rf "$tmp"
}
trap stop EXIT

mkdir "$tmp/run" "$tmp/data" && chown postgres: "$tmp/run" "$tmp/data"
if ! (cd / && pg $PG/initdb -D "$tmp/data" -A trust -U postgres) >"$tmp/initdb.log" 2>&1; then
	fail usdt_postgres_server "initdb failed: $(tail -3 "$tmp/initdb.log")"
	exit 0
fi
if ! (cd / && pg $PG/pg_ctl -D "$tmp/data" -l "$tmp/run/server.log" -w \
	-o "-k $tmp/run -c listen_addresses= -c log_checkpoints=on" start) >"$tmp/pgctl.log" 2>&1; then
	fail usdt_postgres_server "the server did not start: $(tail -3 "$tmp/run/server.log" 2>/dev/null)"
	exit 0
fi
postmaster=$(head -1 "$tmp/data/postmaster.pid")
psql() { (cd / && pg /usr/bin/psql -h "$tmp/run" -U postgres -X -q -A -t "$@" postgres); }

# the postmaster and the backends it starts from now on; the checkpointer,
# which it started already
P=$PG/postgres
checkpointer=$(ps --ppid "$postmaster" -o pid=,args= | awk '/checkpointer/ { print $1 }')
"$BPFPROBE" trace --json -p "$postmaster" "exec=$P;%postgresql:query__start q=arg1:string" \
	>"$tmp/trace.out" 2>"$tmp/trace.err" &
tracer=$!
"$BPFPROBE" trace --json -p "$checkpointer" \
	"exec=$P;%postgresql:checkpoint__done written=arg1 nbuffers=arg2" \
	>"$tmp/ck.out" 2>"$tmp/ck.err" &
tracer2=$!
for f in "$tmp/trace.err" "$tmp/ck.err"; do
	wait_grep 'attached' "$f" ||
		{ fail usdt_postgres_attach "trace did not attach: $(tail -3 "$f")"; exit 0; }
done

q1="SELECT 42 AS bpfprobe_usdt_test"
q2="SELECT 'multi word', 'x''quote' AS bpfprobe_second"
psql -c "$q1" >/dev/null
psql -c "$q2" >/dev/null
psql -c "CREATE TABLE bpfprobe_t AS SELECT g FROM generate_series(1, 5000) g" >/dev/null
nbuffers=$(psql -c "SELECT setting FROM pg_settings WHERE name = 'shared_buffers'")
psql -c "CHECKPOINT" >/dev/null
wait_grep '"written"' "$tmp/ck.out"
kill -INT $tracer $tracer2
wait $tracer $tracer2
tracer= tracer2=

got=$(jq -r 'select(.args.q) | .args.q' "$tmp/trace.out")
if grep -qxF -- "$q1" <<<"$got" && grep -qxF -- "$q2" <<<"$got"; then
	pass usdt_postgres_query_start
else
	fail usdt_postgres_query_start "query strings seen: $(head -5 <<<"$got" | tr '\n' '|') $(tail -2 "$tmp/trace.err")"
fi

# "checkpoint complete: wrote N buffers" in the server's own log
logged=$(sed -n 's/.*checkpoint complete: wrote \([0-9]*\) buffers.*/\1/p' "$tmp/run/server.log" | tail -1)
ck=$(jq -r 'select(.args.written != null) | "\(.args.written) \(.args.nbuffers)"' "$tmp/ck.out" | tail -1)
if [ -n "$logged" ] && [ "$ck" = "$logged $nbuffers" ]; then
	pass usdt_postgres_checkpoint_symbols
else
	fail usdt_postgres_checkpoint_symbols "fetched '$ck', the log says $logged buffers written, pg_settings $nbuffers buffers"
fi
exit 0
