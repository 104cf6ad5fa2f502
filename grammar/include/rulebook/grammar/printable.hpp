// Text from input, made safe for a terminal. A name in a log, a title in a statistics file or a
// comment in a rule file may hold control characters: ESC starts terminal escape sequences
// (colours, cursor moves, window titles), and a newline in a name would print a line that
// looks like the tool's own. Everything the tool prints that came from input, and that it
// does not refuse at the input, goes through here.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace rulebook::grammar {

// `text` with each control character written out: \n, \r, \t, \xNN for the other C0 codes and
// DEL, \u00NN for the C1 codes (U+0080 to U+009F, which some terminals also obey), \uNNNN for
// the bidirectional controls (U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069). Any other
// byte, valid UTF-8 or not, is kept.
std::string printable(std::string_view text);

// printable() of at most the first `max_bytes` of `text` (not splitting a UTF-8 character),
// then "... (N bytes)" when it was longer: for text from input quoted in a message, which a
// 130 KB argument filled whole (the seventh probe).
std::string printable_short(std::string_view text, std::size_t max_bytes = 80);

// The same, but each control byte becomes one '?' (a C1 code's two bytes become "??"), so that
// columns stay where they were: for a source line shown above a caret. A tab is kept.
std::string printable_same_width(std::string_view text);

// The length of the control character that starts at byte `i` of `text` (1 for C0 and DEL,
// 2 for a C1 code in UTF-8, 3 for a bidirectional control), or 0 if none does.
std::size_t control_character_at(std::string_view text, std::size_t i);

// Whether `text` holds a control character (what printable() would write out).
bool has_control_character(std::string_view text);

}  // namespace rulebook::grammar
