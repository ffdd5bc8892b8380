#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "conformance_rpc.h"

// Conversions so QCOMPARE prints both sides on failure (Qt Test cannot print
// std::string or std containers).
namespace qs::test::conf {

inline QString qstr(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

inline QStringList qstrs(const std::vector<std::string>& texts) {
    QStringList out;
    for (const auto& text : texts)
        out << qstr(text);
    return out;
}

template <class Int>
QList<qint64> qints(const std::vector<Int>& values) {
    QList<qint64> out;
    for (const auto value : values)
        out << static_cast<qint64>(value);
    return out;
}

template <class Int>
QList<qint64> qints(const std::set<Int>& values) {
    QList<qint64> out;
    for (const auto value : values)
        out << static_cast<qint64>(value);
    return out;
}

inline QStringList sorted(QStringList list) {
    list.sort();
    return list;
}

inline QString secondsText(double seconds) {
    return QString::number(seconds, 'f', 3) + QStringLiteral(" s");
}

}  // namespace qs::test::conf

// Asserts lo <= elapsed <= hi (seconds), printing the measured value.
#define CONF_VERIFY_SECONDS(elapsed, lo, hi)                                                  \
    QVERIFY2((elapsed) >= (lo) && (elapsed) <= (hi),                                          \
             qPrintable(QStringLiteral("elapsed ") + ::qs::test::conf::secondsText(elapsed) + \
                        QStringLiteral(", expected ") + QString::number(lo) +                 \
                        QStringLiteral("..") + QString::number(hi) + QStringLiteral(" s")))

// The unary call itself succeeded (gRPC OK).
#define REQUIRE_RPC_OK(rpc) QVERIFY2((rpc).ok(), ::qs::test::conf::describe((rpc).status).c_str())
// gRPC OK and no in-band error in the reply.
#define REQUIRE_NO_ERROR(rpc)                                          \
    do {                                                               \
        REQUIRE_RPC_OK(rpc);                                           \
        QVERIFY2(!(rpc).reply.iserror(), (rpc).reply.error().c_str()); \
    } while (false)
