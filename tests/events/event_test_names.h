#pragma once

#include <string>

// qs::toString(enum) returns std::string_view and, found by argument-dependent
// lookup, hides QTest's own printer inside QCOMPARE; compare such enums by
// their names instead (a failure then prints both names).
#define QS_COMPARE_NAME(actual, expected) \
    QCOMPARE(std::string(toString(actual)), std::string(toString(expected)))
