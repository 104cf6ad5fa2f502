// The header of a game log: what the game was (players, seats, seat names, options) and
// whether it was written for these rules. Problems that stop a replay are LogErrors; the
// rest are warnings for the caller to report.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "log_reader.hpp"
#include "rulebook/interpreter/machine.hpp"

namespace rulebook::interpreter::detail {

struct LogHeader {
  LogLine line;
  GameConfig config;  // players and options (the log's, then `overrides`)
  std::int32_t seats = 0;
  std::vector<std::string> names;  // one per seat, or empty when the log names no seats
  std::vector<std::pair<std::string, std::string>> warnings;  // the key pointed at, and the message
};

// The keys a header may have; any other is warned about and kept by `record` when it goes on
// with a log (a later version or another tool may have written it).
bool is_known_header_key(std::string_view key);

// Why a seat name would read as something else, or "": `table` and `record`'s prompt words
// (`undo`, `quit`, `?`), and "player N" or "seat N" (any case) for a seat other than N. The
// same rule for a log's "names" and for `record --names`.
std::string reserved_name(const std::string& text, std::int32_t seat);

// Reads and checks the header. `strict`: a log for other rule files (hash) is an error.
LogHeader read_log_header(LogReader& reader, const Machine& machine, const std::map<std::string, std::string>& overrides,
                          bool strict);

}  // namespace rulebook::interpreter::detail
