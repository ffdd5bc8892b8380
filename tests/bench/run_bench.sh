#!/bin/sh
# Runs bench_broker RUNS times for (a)+(b) (each with the gRPC floor in turn, unless
# --no-floor) and RUNS times for (c) and prints every figure plus the medians. Usage:
#   tests/bench/run_bench.sh <path to bench_broker> [RUNS] [extra bench_broker args...]
set -eu
bench=${1:?usage: run_bench.sh BENCH_BROKER [RUNS] [ARGS...]}
runs=${2:-5}
shift
[ $# -gt 0 ] && shift
out=$(mktemp)
trap 'rm -f "$out"' EXIT

memory=yes
for a in "$@"; do
    [ "$a" = "--address" ] && memory=no
done

echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
i=1
while [ "$i" -le "$runs" ]; do
    "$bench" "$@" | tee -a "$out"
    if [ "$memory" = yes ]; then
        "$bench" --memory | tee -a "$out"
    fi
    i=$((i + 1))
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

median() {
    sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "n/a"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
echo "median throughput: $(sed -n 's/^throughput: \([0-9]*\) msg\/s.*/\1/p' "$out" | median) msg/s"
echo "median throughput cpu: $(sed -n 's/^throughput cpu: \([0-9.]*\) .*/\1/p' "$out" | median) µs CPU per message"
echo "median latency p50: $(sed -n 's/^latency: p50 \([0-9]*\) .*/\1/p' "$out" | median) µs"
echo "median latency p99: $(sed -n 's/^latency: .*p99 \([0-9]*\) .*/\1/p' "$out" | median) µs"
echo "median floor throughput: $(sed -n 's/^floor throughput: \([0-9]*\) msg\/s.*/\1/p' "$out" | median) msg/s"
echo "median floor latency p50: $(sed -n 's/^floor latency: p50 \([0-9]*\) .*/\1/p' "$out" | median) µs"
echo "median of the per-run ratios: batched $(sed -n 's/^vs floor: .* batched: \([0-9]*\) %.*/\1/p' "$out" | median) % of the gRPC floor, round-trip p50 $(sed -n 's/^vs floor: .* round-trip p50 \([0-9.]*\)× .*/\1/p' "$out" | median)× the floor"
echo "median memory after: $(sed -n 's/^memory: .*after \([0-9.]*\) MB.*/\1/p' "$out" | median) MB"
