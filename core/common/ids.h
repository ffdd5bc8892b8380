#pragma once

#include <string>

// Identifier formats KubeMQ uses on the wire. Thread-safe: each thread draws
// from its own random engine, so callers never contend on a lock.
namespace qs {

// 22-character base-62 id in the style of a NATS NUID (server-generated
// MessageID / RequestID).
std::string newNuid();

// RFC 4122 version-4 UUID in lower-case 8-4-4-4-12 form (TransactionId,
// client request ids).
std::string newUuid();

}  // namespace qs
