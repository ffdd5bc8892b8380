# One INTERFACE target carries the language level, warnings, Qt strictness and
# sanitizer flags; every first-party target links it.
add_library(queuescope_build_settings INTERFACE)
add_library(Queuescope::BuildSettings ALIAS queuescope_build_settings)

target_compile_features(queuescope_build_settings INTERFACE cxx_std_20)
target_compile_options(queuescope_build_settings INTERFACE -Wall -Wextra -Wpedantic)
if(QUEUESCOPE_WERROR)
  target_compile_options(queuescope_build_settings INTERFACE -Werror)
endif()
target_compile_definitions(queuescope_build_settings INTERFACE
  QT_NO_CAST_FROM_ASCII
  QT_NO_CAST_TO_ASCII
  QT_NO_URL_CAST_FROM_STRING
  QT_USE_QSTRINGBUILDER
  QT_NO_FOREACH
  QT_NO_KEYWORDS)

# Sanitizers are applied globally so the generated protobuf code and every test
# executable are instrumented alike.
if(QUEUESCOPE_ASAN)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
  # Code that must scale work to an instrumented build (tests/broker's crash
  # harness) reads this, as __SANITIZE_THREAD__ is unset below.
  add_compile_definitions(QUEUESCOPE_SANITIZER_BUILD=1)
endif()
if(QUEUESCOPE_TSAN)
  # Debian's libprotobuf is not built with TSan; protobuf's headers add members
  # to some classes when __SANITIZE_THREAD__ is defined, which would break the
  # ABI against that library. Instrument our code, keep the library's layout.
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer -U__SANITIZE_THREAD__)
  add_link_options(-fsanitize=thread)
  add_compile_definitions(QUEUESCOPE_SANITIZER_BUILD=1)
endif()

# The build links ~60 executables against gRPC, protobuf and Qt; GNU ld spends
# about a third of a minute on them per build here, lld about a third of that
# (docs/testing.md). Use lld when it is installed, else gold (part of
# binutils), else the toolchain's default. QUEUESCOPE_LINKER=default opts out.
set(QUEUESCOPE_LINKER "auto" CACHE STRING "Linker: auto (lld, else gold), lld, gold or default")
set_property(CACHE QUEUESCOPE_LINKER PROPERTY STRINGS auto lld gold default)
if(NOT QUEUESCOPE_LINKER STREQUAL "default")
  include(CheckLinkerFlag)
  set(_queuescope_linkers ${QUEUESCOPE_LINKER})
  if(QUEUESCOPE_LINKER STREQUAL "auto")
    set(_queuescope_linkers lld gold)
  endif()
  foreach(_linker IN LISTS _queuescope_linkers)
    string(TOUPPER "${_linker}" _upper)
    check_linker_flag(CXX "-fuse-ld=${_linker}" QUEUESCOPE_HAVE_LD_${_upper})
    if(QUEUESCOPE_HAVE_LD_${_upper})
      add_link_options("-fuse-ld=${_linker}")
      message(STATUS "Queuescope: linking with ${_linker}")
      break()
    endif()
  endforeach()
  if(NOT QUEUESCOPE_LINKER STREQUAL "auto" AND NOT QUEUESCOPE_HAVE_LD_${_upper})
    message(FATAL_ERROR "QUEUESCOPE_LINKER=${QUEUESCOPE_LINKER}: the compiler cannot link with it")
  endif()
endif()
