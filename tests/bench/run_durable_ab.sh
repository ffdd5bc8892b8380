#!/bin/sh
# One A/B series of the durable broker against a real KubeMQ v2.4.0, in the same
# minutes: KubeMQ (started from ../shared/kubemq-server, skipped with a note when
# absent), then for --sync batch and --sync always the NEW bench_broker and the OLD
# one in turn (each --runs RUNS with the gRPC floor). Prints the load average between
# the steps and, at the end, every median line.
# Usage:
#   tests/bench/run_durable_ab.sh NEW_BENCH_BROKER OLD_BENCH_BROKER [RUNS] [KUBEMQ_GRPC_PORT]
#   (RUNS defaults to 5, the port to 50710; the port, +1 and +2 must be free)
set -eu
new=${1:?usage: run_durable_ab.sh NEW_BENCH_BROKER OLD_BENCH_BROKER [RUNS] [PORT]}
old=${2:?usage: run_durable_ab.sh NEW_BENCH_BROKER OLD_BENCH_BROKER [RUNS] [PORT]}
runs=${3:-5}
port=${4:-50710}
here=$(cd "$(dirname "$0")" && pwd)
kubemq_start="$here/../../../shared/kubemq-server/start.sh"
store=$(mktemp -d)
out=$(mktemp)
trap 'rm -rf "$store" "$out"' EXIT

load() { echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) at $(date -u +%H:%M:%S) UTC"; }

echo "date: $(date -u '+%Y-%m-%d'), $(nproc) CPUs"
load
if [ -x "$(dirname "$kubemq_start")/kubemq" ]; then
    echo "=== KubeMQ v2.4.0" | tee -a "$out"
    set -- $("$kubemq_start" "$port")
    pid=$1
    workdir=$2
    "$new" --runs "$runs" --no-floor --address "127.0.0.1:$port" | tee -a "$out" || true
    kill "$pid"
    while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
    rm -rf "$workdir"
else
    echo "no KubeMQ v2.4.0 at $(dirname "$kubemq_start"): its comparison is skipped"
fi
for sync in batch always; do
    for side in new old; do
        echo "---"; load
        echo "=== $side --sync $sync" | tee -a "$out"
        if [ "$side" = new ]; then bench=$new; else bench=$old; fi
        "$bench" --runs "$runs" --data-dir "$store/data" --sync "$sync" | tee -a "$out"
    done
done
load
echo "=== medians"
grep -E '^(===|median)' "$out"
