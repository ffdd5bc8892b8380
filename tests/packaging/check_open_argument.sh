#!/usr/bin/env bash
# `queuescope RUN.qsrun` (what a file manager runs for the *.qsrun type the
# package declares) opens the recording as --open does: a recording made by
# `queuescope run --record` is shown (compared with itself, which needs it
# shown, and screenshot); a file that is not a recording is refused with its
# name and exit 3; two files, or a file and --open, are refused with exit 2.
#   check_open_argument.sh <queuescope executable>
set -uo pipefail
console=$1
export QT_QPA_PLATFORM=offscreen
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "PASS: $*"; }

run=$tmp/classic.qsrun
"$console" run --scenario 01-classic-work-queue --record "$run" --quiet >"$tmp/run.txt" 2>&1 ||
  { cat "$tmp/run.txt"; echo "FAIL: queuescope run --record"; exit 1; }

timeout 60 "$console" "$run" --screenshot "$tmp/shown.png" >"$tmp/out.txt" 2>"$tmp/err.txt"
status=$?
[ $status -eq 0 ] && [ "$(head -c 8 "$tmp/shown.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
  pass "queuescope RUN.qsrun --screenshot: exit 0, a PNG" ||
  fail "queuescope RUN.qsrun --screenshot: exit $status: $(cat "$tmp/err.txt")"

# --compare compares the recording shown: it is there only if the argument opened it.
timeout 60 "$console" "$run" --compare "$run" --screenshot "$tmp/compared.png" >"$tmp/out.txt" \
  2>"$tmp/err.txt"
status=$?
[ $status -eq 0 ] && [ -s "$tmp/compared.png" ] &&
  pass "queuescope RUN.qsrun --compare RUN.qsrun: the argument's recording was shown and compared" ||
  fail "queuescope RUN.qsrun --compare: exit $status: $(cat "$tmp/err.txt")"

timeout 60 "$console" "$run" --at 0.5 --screenshot "$tmp/at.png" >/dev/null 2>"$tmp/err.txt"
status=$?
[ $status -eq 0 ] && pass "queuescope RUN.qsrun --at 0.5: exit 0" ||
  fail "queuescope RUN.qsrun --at: exit $status: $(cat "$tmp/err.txt")"

junk=$tmp/junk.qsrun
printf 'not a recording\n' >"$junk"
timeout 60 "$console" "$junk" --screenshot "$tmp/junk.png" >/dev/null 2>"$tmp/err.txt"
status=$?
[ $status -eq 3 ] && grep -q "^queuescope: $junk: " "$tmp/err.txt" && [ ! -e "$tmp/junk.png" ] &&
  pass "queuescope JUNK.qsrun: refused with its name, exit 3" ||
  fail "queuescope JUNK.qsrun: exit $status: $(cat "$tmp/err.txt")"

for args in "$run $run" "$run --open $run"; do
  # shellcheck disable=SC2086
  timeout 60 "$console" $args --screenshot "$tmp/two.png" >/dev/null 2>"$tmp/err.txt"
  status=$?
  [ $status -eq 2 ] && grep -q "give one recording" "$tmp/err.txt" &&
    pass "two recordings ($args): exit 2" || fail "two recordings ($args): exit $status"
done

echo "$failures failed"
[ $failures -eq 0 ]
