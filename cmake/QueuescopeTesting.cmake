# queuescope_add_test(<name> SOURCES <files...> [LIBS <targets...>] [LABELS <labels...>]
#                     [TIMEOUT <seconds>] [ENVIRONMENT <VAR=value...>])
# Adds a Qt Test executable and registers it with ctest. Labels used in this project:
#   core     plain-core suites (no GUI)       threading  suites meant for ThreadSanitizer
#   gui      suites needing QApplication       slow       suites with long timed waits
#   js       the kubemq-js conformance run
function(queuescope_add_test name)
  cmake_parse_arguments(ARG "" "TIMEOUT" "SOURCES;LIBS;LABELS;ENVIRONMENT" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE queuescope_build_settings Qt6::Test ${ARG_LIBS})
  add_test(NAME ${name} COMMAND ${name})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 300)
  endif()
  set(env QT_QPA_PLATFORM=offscreen ${ARG_ENVIRONMENT})
  set_tests_properties(${name} PROPERTIES
    TIMEOUT ${ARG_TIMEOUT}
    LABELS "${ARG_LABELS}"
    ENVIRONMENT "${env}")
endfunction()
