# queuescope_add_test(<name> SOURCES <files...> [LIBS <targets...>] [LABELS <labels...>]
#                     [TIMEOUT <seconds>] [COST <seconds>] [ENVIRONMENT <VAR=value...>])
# Adds a Qt Test executable and registers it with ctest. Labels used in this project:
#   core     plain-core suites (no GUI)       threading  suites meant for ThreadSanitizer
#   gui      suites needing QApplication       slow       suites with long timed waits
#   js       the kubemq-js conformance run
#   realserver  suites that start the real KubeMQ v2.4.0 of ../shared/kubemq-server
#               (they skip with a message when it is absent); `ctest -L realserver`
#               runs every suite that uses it
#   faults   fault injection (SIGKILLs, worker crashes, cut or dropped connections)
#   fuzz     bounded fuzz runs
#   bench    the benchmarks' smoke runs (tests/bench/CMakeLists.txt; no figure decides)
# COST is the suite's usual wall time; `ctest -j` starts costly suites first, so a
# fresh build tree (no CTestCostData.txt yet) does not end on a 90 s suite.
#
# With QUEUESCOPE_PCH (top-level option), every suite reuses one precompiled header
# (QtTest, gRPC, kubemq.grpc.pb.h, the STL; GUI suites: QtTest and QtWidgets) instead
# of parsing those headers again per executable: a conformance suite compiles in
# 11.8 s of CPU instead of 15.7 s, for one ~21 s PCH build (docs/testing.md). Reuse needs identical flags, so the PCH
# targets link the same usage requirements as the suites, and Qt Test's
# per-directory QT_TESTCASE_BUILDDIR/SOURCEDIR (only used by QFINDTESTDATA,
# which no suite calls) are undefined for both.

# -pthread (defines _REENTRANT) comes with gRPC's targets; the few suites without
# gRPC get it too, or the PCH would not match them.
set(queuescope_test_pch_flags -UQT_TESTCASE_BUILDDIR -UQT_TESTCASE_SOURCEDIR -pthread)

# queuescope_add_test_pch(<target> HEADERS <headers...> LIBS <targets...>)
# Creates the static library whose PCH the suites reuse.
function(queuescope_add_test_pch target)
  cmake_parse_arguments(ARG "" "" "HEADERS;LIBS" ${ARGN})
  set(anchor ${CMAKE_CURRENT_BINARY_DIR}/${target}.cpp)
  file(CONFIGURE OUTPUT ${anchor} CONTENT "// Anchor for the ${target} precompiled header.\n")
  add_library(${target} STATIC ${anchor})
  target_link_libraries(${target} PRIVATE queuescope_build_settings ${ARG_LIBS})
  target_compile_options(${target} PRIVATE ${queuescope_test_pch_flags})
  target_precompile_headers(${target} PRIVATE ${ARG_HEADERS})
  set_target_properties(${target} PROPERTIES AUTOMOC OFF)
endfunction()

function(queuescope_add_test name)
  cmake_parse_arguments(ARG "" "TIMEOUT;COST" "SOURCES;LIBS;LABELS;ENVIRONMENT" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE queuescope_build_settings Qt6::Test ${ARG_LIBS})
  if(QUEUESCOPE_PCH)
    if("gui" IN_LIST ARG_LABELS)
      set(pch queuescope_gui_test_pch)
    else()
      set(pch queuescope_test_pch)
    endif()
    if(TARGET ${pch})
      target_compile_options(${name} PRIVATE ${queuescope_test_pch_flags})
      target_precompile_headers(${name} REUSE_FROM ${pch})
      # AUTOMOC's mocs_compilation.cpp is empty for a suite (its moc output is
      # included by the .cpp); loading the PCH would cost it ~1 s for nothing.
      set_source_files_properties(${CMAKE_CURRENT_BINARY_DIR}/${name}_autogen/mocs_compilation.cpp
        PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
    endif()
  endif()
  add_test(NAME ${name} COMMAND ${name})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 300)
  endif()
  set(env QT_QPA_PLATFORM=offscreen ${ARG_ENVIRONMENT})
  set_tests_properties(${name} PROPERTIES
    TIMEOUT ${ARG_TIMEOUT}
    LABELS "${ARG_LABELS}"
    ENVIRONMENT "${env}")
  if(ARG_COST)
    set_tests_properties(${name} PROPERTIES COST ${ARG_COST})
  endif()
endfunction()

# queuescope_add_fuzz_target(<name> SOURCES <files...> CORPUS <dirs...> [SEEDS <file>]
#                            [LIBS <targets...>] [SECONDS <s>] [LABELS <labels...>])
# A fuzz target: a file defining LLVMFuzzerTestOneInput. With QUEUESCOPE_FUZZ
# (clang) it is a libFuzzer executable with ASan and UBSan (docs/testing.md,
# Fuzzing); otherwise it is linked with tests/support/fuzz_driver.cpp, a
# bounded mutation loop, and ctest runs <name>_bounded over the CORPUS folders
# (every input once, then mutations) for SECONDS
# (default 5; labels `core fuzz`). SEEDS is the file whose writeFuzzSeeds()
# writes the repository's seed corpus (`<name> --write-seeds DIR`). LABELS are
# added to `core fuzz` (`threading`: the bounded run joins the ThreadSanitizer stage).
option(QUEUESCOPE_FUZZ "Build libFuzzer targets (needs clang)" OFF)
function(queuescope_add_fuzz_target name)
  cmake_parse_arguments(ARG "" "SEEDS;SECONDS" "SOURCES;LIBS;LABELS;CORPUS" ${ARGN})
  if(NOT ARG_SECONDS)
    set(ARG_SECONDS 5)
  endif()
  if(QUEUESCOPE_FUZZ)
    add_executable(${name} ${ARG_SOURCES})
    target_compile_options(${name} PRIVATE -fsanitize=fuzzer,address,undefined)
    target_link_options(${name} PRIVATE -fsanitize=fuzzer,address,undefined)
  else()
    add_executable(${name} ${ARG_SOURCES} ${PROJECT_SOURCE_DIR}/tests/support/fuzz_driver.cpp
                           ${ARG_SEEDS})
    if(ARG_SEEDS)
      target_compile_definitions(${name} PRIVATE QUEUESCOPE_FUZZ_SEEDS)
    endif()
    add_test(NAME ${name}_bounded COMMAND ${name} --seconds ${ARG_SECONDS} ${ARG_CORPUS})
    set_tests_properties(${name}_bounded PROPERTIES LABELS "core;fuzz;${ARG_LABELS}" TIMEOUT 120)
  endif()
  target_link_libraries(${name} PRIVATE queuescope_build_settings ${ARG_LIBS})
endfunction()
