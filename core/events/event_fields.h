#pragma once

#include <span>
#include <string_view>

#include "events/event.h"

// What the three general-purpose fields of an Event (value, count2, detail)
// mean for each kind, by name. The event keeps three plain slots because every
// byte of it crosses threads hundreds of thousands of times a second
// (event.h); the names below are the one place that says what each slot holds,
// and every export, the JSON Lines read-back and docs/events.md use them, so no
// file a person reads says "count2". Pure functions, any thread.
namespace qs {

struct EventFieldNames {
    std::string_view value;   // Event::value, or empty: the kind leaves it 0
    std::string_view count2;  // Event::count2, or empty
    std::string_view detail;  // Event::detail, or empty
};

EventFieldNames eventFieldNames(EventKind kind);

// Every distinct name of the table, each once, in kind order then slot order:
// the extra CSV columns of an event log.
std::span<const std::string_view> allEventFieldNames();

// Brings an event recorded before the fields were typed to today's form:
// poll-started's wait timeout moves from detail text to count2, and
// config-changed gets the bits of its changed settings in value. Unchanged
// when already in that form.
void upgradeLegacyEventFields(Event& e);

}  // namespace qs
