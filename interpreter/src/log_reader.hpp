// Reading a game log: JSON Lines, one line at a time, so that a long log is never held as
// one big JSON tree. Lines are parsed when the replay asks for them; a line that is not
// JSON, or not a known kind of line, is a LogError pointing at it.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace rulebook::interpreter::detail {

// A line of the log: its 1-based number and its bytes [begin, end) in the text.
struct LogLine {
  std::uint32_t number = 0;
  std::size_t begin = 0;
  std::size_t end = 0;
};

// Something wrong with the log itself (bad input). `key` names the part of the line to point
// at ("" for the whole line); `column` (1-based, 0 if unknown) overrides it.
class LogError : public std::runtime_error {
 public:
  LogError(LogLine at, std::string key_name, const std::string& message, std::uint32_t at_column = 0)
      : std::runtime_error(message), line(at), key(std::move(key_name)), column(at_column) {}
  LogLine line;
  std::string key;
  std::uint32_t column;
};

enum class EventType { kHeader, kRound, kShuffle, kDeal, kMove, kPolicy, kEnd, kFault, kStopped };

// What a line of this type is called in messages ("a deal line").
const char* event_name(EventType type);

struct LogEvent {
  EventType type = EventType::kHeader;
  LogLine line;
  nlohmann::json body;  // the whole object of the line
};

class LogReader {
 public:
  explicit LogReader(std::string_view text) : text_(text) {}

  // The header: the first line that is not blank or a comment. Throws LogError.
  LogEvent read_header();
  // The next event, or nullptr at the end of the log. Throws LogError for a bad line.
  const LogEvent* peek();
  void advance() { current_.reset(); }
  // The last line read (for "the log ends here" messages).
  [[nodiscard]] LogLine last_line() const { return last_; }

 private:
  // The next line with content; false at the end of the text.
  bool next_line(LogLine& line);
  LogEvent parse(const LogLine& line, bool header) const;

  std::string_view text_;
  std::size_t pos_ = 0;
  std::uint32_t number_ = 0;
  LogLine last_;
  std::optional<LogEvent> current_;
};

}  // namespace rulebook::interpreter::detail
