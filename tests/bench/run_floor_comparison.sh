#!/bin/sh
# Issue #14's comparison in one series: the gRPC floor alone, then bench_broker (each
# with the floor in turn) on the memory broker, the durable broker with --sync batch
# and --sync always, and a real KubeMQ v2.4.0 started from ../shared/kubemq-server
# (skipped, with a note, when absent). Prints every run's lines, then the medians.
# Usage:
#   tests/bench/run_floor_comparison.sh BENCH_DIR [RUNS] [KUBEMQ_GRPC_PORT]
#   (BENCH_DIR holds bench_broker and bench_grpc_floor; RUNS defaults to 5, the port
#   to 50710; the port, +1 and +2 must be free)
set -eu
dir=${1:?usage: run_floor_comparison.sh BENCH_DIR [RUNS] [KUBEMQ_GRPC_PORT]}
runs=${2:-5}
port=${3:-50710}
here=$(cd "$(dirname "$0")" && pwd)
kubemq_start="$here/../../../shared/kubemq-server/start.sh"
store=$(mktemp -d)
out=$(mktemp)
trap 'rm -rf "$store" "$out"' EXIT

load() { echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) at $(date -u +%H:%M:%S) UTC"; }

echo "date: $(date -u '+%Y-%m-%d'), $(nproc) CPUs"
load
"$dir/bench_grpc_floor" --runs "$runs" | tee -a "$out"
for sync in "" batch always; do
    echo "---"; load
    if [ -z "$sync" ]; then
        "$dir/bench_broker" --runs "$runs" | tee -a "$out"
    else
        "$dir/bench_broker" --runs "$runs" --data-dir "$store/data" --sync "$sync" | tee -a "$out"
    fi
done
echo "---"; load
if [ -x "$(dirname "$kubemq_start")/kubemq" ]; then
    set -- $("$kubemq_start" "$port")
    pid=$1
    workdir=$2
    "$dir/bench_broker" --runs "$runs" --address "127.0.0.1:$port" | tee -a "$out" || true
    kill "$pid"
    while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
    rm -rf "$workdir"
else
    echo "no KubeMQ v2.4.0 at $(dirname "$kubemq_start"): its comparison is skipped"
fi
load
echo "=== medians"
grep '^median' "$out"
