#!/usr/bin/env bash
# Queuescope developer entry point: installs what is missing (Debian 12), configures,
# builds, and either runs the app or runs every test.
#
#   bash packaging/dev.sh run [app args...]   build and start the console (embedded broker)
#   bash packaging/dev.sh test [stage...]     build and run all tests, then the suites under
#                                             ASan+UBSan and the threading suites under TSan
#                                             (stages: release asan tsan; default all three)
#   bash packaging/dev.sh deps                only install the Debian packages
#
# Build trees: build/app, build/ci-{release,asan,tsan} (tests). The release stage is
# built with -Werror; the sanitizer stages are not, because GCC's diagnostics change
# under instrumentation (false positives). Override the build job count with JOBS=N
# and the number of suites ctest runs at once with TEST_JOBS=N (docs/testing.md).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
jobs=${JOBS:-$(nproc)}
# Most suites spend their time in timed waits (long polls, visibility timers), so
# ctest runs twice as many suites as there are cores.
test_jobs=${TEST_JOBS:-$((jobs * 2))}
# 1: stage 2 also builds the console and runs the eight GUI suites under ASan+UBSan.
# LeakSanitizer suppressions for Qt's and fontconfig's own allocations go in
# tests/lsan.supp (used when present).
asan_gui=${QUEUESCOPE_ASAN_GUI:-0}

packages=(
  build-essential cmake ninja-build pkg-config git
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
  qt6-base-dev qt6-charts-dev libgl-dev
  nlohmann-json3-dev
  nodejs npm
  fonts-dejavu-core openssl
)

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

install_deps() {
  local missing=()
  for p in "${packages[@]}"; do
    # nodejs/npm may come from elsewhere; a working binary is enough.
    if [ "$p" = nodejs ] && command -v node >/dev/null 2>&1; then continue; fi
    if [ "$p" = npm ] && command -v npm >/dev/null 2>&1; then continue; fi
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "==> installing Debian packages: ${missing[*]}"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
}

configure() {  # configure <build dir> <cmake args...>
  local dir=$1; shift
  cmake -S "$here" -B "$dir" -G Ninja "$@" >"$dir.configure.log" 2>&1 || {
    cat "$dir.configure.log"; return 1; }
}

run_tests() {  # run_tests <build dir> <ctest -j> <ctest args...>
  local dir=$1 parallel=$2; shift 2
  # A failed suite is retried once (the log shows both runs), so a single timing
  # hiccup on a loaded machine does not hide the verdict of every other suite.
  (cd "$dir" && ctest --output-on-failure --repeat until-pass:2 -j "$parallel" "$@")
}

# Stage builds run in the background at the lowest CPU priority while the previous
# stage's suites run (they mostly wait on timers, leaving the cores idle).
bg_pid=
bg_log=
build_in_background() {  # build_in_background <build dir> <cmake --build args...>
  local dir=$1; shift
  bg_log=$dir.build.log
  echo "    (building $dir in the background, log $bg_log)"
  # setsid: the build gets its own process group, so a failed stage can stop it.
  setsid nice -n 19 cmake --build "$dir" -j "$jobs" "$@" >"$bg_log" 2>&1 &
  bg_pid=$!
}
wait_for_background() {
  local pid=$bg_pid
  bg_pid=
  if ! wait "$pid"; then
    tail -n 60 "$bg_log"
    echo "==> background build failed (full log: $bg_log)" >&2
    return 1
  fi
}
stop_background() {
  if [ -n "$bg_pid" ]; then kill -- "-$bg_pid" 2>/dev/null || true; fi
}

stamp() { date +%s; }
timings=()
note_time() {  # note_time <label> <start>
  timings+=("$(printf '%-34s %5d s' "$1" $(( $(stamp) - $2 )))")
}
finish_test_run() {  # EXIT trap of `test`: stop a background build, show the phase times
  stop_background
  if [ ${#timings[@]} -gt 0 ]; then
    echo "==> phase times:"
    printf '    %s\n' "${timings[@]}"
  fi
}

configure_release() {
  # No PCH here: with it, GCC 12 at -O2 reports false -Warray-bounds errors inside
  # std::string's inlined copies (docs/testing.md), and this stage is -Werror.
  configure build/ci-release -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" \
    -DQUEUESCOPE_WERROR=ON -DQUEUESCOPE_PCH=OFF
}
configure_asan() {
  local gui=OFF
  [ "$asan_gui" = 1 ] && gui=ON
  configure build/ci-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
    -DQUEUESCOPE_ASAN=ON -DQUEUESCOPE_BUILD_GUI=$gui -DQUEUESCOPE_BUILD_BENCHMARKS=OFF \
    -DQUEUESCOPE_PCH=ON
}
configure_tsan() {
  configure build/ci-tsan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
    -DQUEUESCOPE_TSAN=ON -DQUEUESCOPE_BUILD_GUI=OFF -DQUEUESCOPE_BUILD_BENCHMARKS=OFF \
    -DQUEUESCOPE_PCH=ON
}
# Stage 3 builds only what its suites need: every suite labelled `threading`.
tsan_targets() {
  (cd build/ci-tsan && ctest -N -L threading | awk '/Test +#/ {print $3}')
}
run_asan_tests() {
  local lsan=
  [ -f "$here/tests/lsan.supp" ] && lsan=":suppressions=$here/tests/lsan.supp"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 LSAN_OPTIONS="print_suppressions=0$lsan" \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    run_tests build/ci-asan "$test_jobs" "$@"
}
run_tsan_tests() {
  # Instrumented suites are CPU-bound: one per core.
  TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$here/tests/tsan.supp" \
    run_tests build/ci-tsan "$jobs" -L threading "$@"
}

cmd=${1:-run}
[ $# -gt 0 ] && shift
case "$cmd" in
  deps)
    install_deps
    ;;
  run)
    install_deps
    mkdir -p build
    configure build/app -DCMAKE_BUILD_TYPE=RelWithDebInfo -DQUEUESCOPE_BUILD_TESTS=OFF \
      -DQUEUESCOPE_BUILD_BENCHMARKS=OFF
    cmake --build build/app -j "$jobs"
    if [ -x build/app/app/queuescope/queuescope ]; then
      exec build/app/app/queuescope/queuescope "$@"
    else
      exec build/app/app/broker/queuescope-broker "$@"
    fi
    ;;
  test)
    install_deps
    mkdir -p build
    start=$(stamp)
    trap finish_test_run EXIT
    stages=("$@")
    [ ${#stages[@]} -eq 0 ] && stages=(release asan tsan)
    for s in "${stages[@]}"; do
      case "$s" in release|asan|tsan) ;; *) echo "unknown test stage: $s (release, asan, tsan)" >&2; exit 2 ;; esac
    done
    want() { [[ " ${stages[*]} " == *" $1 "* ]]; }
    if want release; then
      echo "==> [1/3] release build, all tests (-Werror)"
      t=$(stamp); configure_release; cmake --build build/ci-release -j "$jobs"
      note_time "release build" "$t"
      if want asan; then configure_asan; build_in_background build/ci-asan; fi
      t=$(stamp); run_tests build/ci-release "$test_jobs"; note_time "release tests" "$t"
    fi
    if want asan; then
      echo "==> [2/3] AddressSanitizer + UndefinedBehaviorSanitizer build, suites$(
        [ "$asan_gui" = 1 ] && echo ' incl. GUI' || echo ' without GUI')"
      t=$(stamp)
      if [ -n "$bg_pid" ]; then
        wait_for_background; note_time "asan build (rest, foreground)" "$t"
      else
        configure_asan; cmake --build build/ci-asan -j "$jobs"; note_time "asan build" "$t"
      fi
      if want tsan; then configure_tsan; build_in_background build/ci-tsan --target $(tsan_targets); fi
      t=$(stamp); run_asan_tests; note_time "asan tests" "$t"
    fi
    if want tsan; then
      echo "==> [3/3] ThreadSanitizer build, threading suites"
      t=$(stamp)
      if [ -n "$bg_pid" ]; then
        wait_for_background; note_time "tsan build (rest, foreground)" "$t"
      else
        configure_tsan; cmake --build build/ci-tsan -j "$jobs" --target $(tsan_targets)
        note_time "tsan build" "$t"
      fi
      t=$(stamp); run_tsan_tests; note_time "tsan tests" "$t"
    fi
    echo "==> test stages (${stages[*]}) passed in $(( $(stamp) - start )) s"
    ;;
  *)
    echo "usage: bash packaging/dev.sh {run|test|deps} [args...]" >&2
    exit 2
    ;;
esac
