#!/usr/bin/env bash
# The console's bad options, as the executable says them: exit 2 and one line
# naming the option, before any window or broker (tst_console_options checks
# every one against the parser; these check main() passes them on). Qt's own
# refusals (an unknown option, a missing value) exit 1.
#   check_console_options.sh <queuescope executable>
set -uo pipefail
console=$1
export QT_QPA_PLATFORM=offscreen
failures=0
expect() {  # expect CODE MESSAGE ARGS...
  local code=$1 message=$2
  shift 2
  local err status
  err=$(timeout 30 "$console" "$@" 2>&1 >/dev/null)
  status=$?
  if [ $status -eq "$code" ] && grep -qF -- "$message" <<<"$err"; then
    echo "PASS: queuescope $*: exit $code, $message"
  else
    echo "FAIL: queuescope $*: exit $status (want $code), said: $err"
    failures=$((failures + 1))
  fi
}
expect 2 "queuescope: --port must be 0..65535" --port 70000
expect 2 "queuescope: --after must be a number of seconds >= 0" --after -1
expect 2 "queuescope: --at must be a number of seconds >= 0, with a recording" --at 2
expect 2 "queuescope: --view must be messages, inflight, polls, log, channels, rates or lessons" --view nope
expect 2 "queuescope: --size must be WxH, at least 400x300" --span 0 --size 10x10
expect 2 "queuescope: --span must be a number of seconds >= 1" --span 0
expect 2 "queuescope: --sync needs --data-dir" --sync batch
expect 2 "queuescope: give one recording to open, as RUN.qsrun or --open" a.qsrun b.qsrun
expect 2 "queuescope: --parity needs a scenario, with --screenshot and no recording" --parity 01
expect 1 "Unknown option 'bogus'" --bogus
expect 1 "Missing value after '--port'" --port
[ $failures -eq 0 ] && echo "all passed" || { echo "$failures failed"; exit 1; }
