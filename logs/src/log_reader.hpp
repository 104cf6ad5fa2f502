// Reading a game log: JSON Lines, one line at a time, so that a long log is never held as
// one big JSON tree. Lines are parsed when the replay asks for them; a line that is not
// JSON, or not a known kind of line, is a LogError pointing at it. simdjson parses: replay
// reads a line per move, and nlohmann's DOM cost several times the move itself (measured,
// see docs/log-format.md).
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include <simdjson.h>

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

// A JSON value of a log line, read-only, with just what replay needs. A view into the
// reader's parser: valid until the reader parses the next line.
class LogValue {
 public:
  explicit LogValue(simdjson::dom::element element) : e_(element) {}

  [[nodiscard]] bool is_object() const { return e_.is_object(); }
  [[nodiscard]] bool is_array() const { return e_.is_array(); }
  [[nodiscard]] bool is_string() const { return e_.is_string(); }
  [[nodiscard]] bool is_integer() const { return e_.is_int64(); }
  [[nodiscard]] bool is_bool() const { return e_.is_bool(); }
  [[nodiscard]] bool is_null() const { return e_.is_null(); }

  [[nodiscard]] bool contains(std::string_view key) const {
    return e_.is_object() && e_[key].error() == simdjson::SUCCESS;
  }
  // The member `key`, if the value is an object that has it (one lookup).
  [[nodiscard]] std::optional<LogValue> find(std::string_view key) const {
    simdjson::dom::element member;
    if (e_[key].get(member) != simdjson::SUCCESS) return std::nullopt;
    return LogValue(member);
  }
  // The member `key`; only after contains(key).
  [[nodiscard]] LogValue at(std::string_view key) const {
    simdjson::dom::element member;
    if (e_[key].get(member) != simdjson::SUCCESS) return *this;  // not reached after contains()
    return LogValue(member);
  }
  [[nodiscard]] std::string_view string() const {
    std::string_view s;
    return e_.get(s) == simdjson::SUCCESS ? s : std::string_view();
  }
  [[nodiscard]] std::int64_t integer() const {
    std::int64_t v = 0;
    return e_.get(v) == simdjson::SUCCESS ? v : 0;
  }
  [[nodiscard]] bool boolean() const {
    bool v = false;
    return e_.get(v) == simdjson::SUCCESS && v;
  }
  // Arrays: the number of items, and each item in order.
  [[nodiscard]] std::size_t size() const {
    simdjson::dom::array items;
    return e_.get(items) == simdjson::SUCCESS ? items.size() : 0;
  }
  template <class F>
  void each(F&& f) const {
    simdjson::dom::array items;
    if (e_.get(items) != simdjson::SUCCESS) return;
    for (const simdjson::dom::element item : items) f(LogValue(item));
  }
  // Objects: each key and value in order.
  template <class F>
  void each_member(F&& f) const {
    simdjson::dom::object members;
    if (e_.get(members) != simdjson::SUCCESS) return;
    for (const simdjson::dom::key_value_pair member : members) f(member.key, LogValue(member.value));
  }
  [[nodiscard]] bool is(std::string_view s) const { return is_string() && string() == s; }
  [[nodiscard]] bool is(std::int64_t v) const { return is_integer() && integer() == v; }
  // Compact JSON text, for messages.
  [[nodiscard]] std::string dump() const { return simdjson::minify(e_); }
  // The string, or the compact JSON of anything else.
  [[nodiscard]] std::string text() const { return is_string() ? std::string(string()) : dump(); }
  // text() as a message quotes it: cut to its first characters (see shown()).
  [[nodiscard]] std::string shown() const;

 private:
  simdjson::dom::element e_;
};

// How a message quotes text from a log: whole up to kShownChars characters, else the first
// ones and "... (N bytes)". A log is untrusted: a label of 100 MB must not be repeated on
// stderr, once or in every message about it.
inline constexpr std::size_t kShownChars = 80;
std::string shown(std::string_view text);

enum class EventType { kHeader, kRound, kShuffle, kDeal, kMove, kPolicy, kDraw, kEnd, kFault, kStopped, kCut };

// What a line of this type is called in messages ("a deal line").
const char* event_name(EventType type);

// One line. `body` (the line's object) lives in the reader's parser: it is valid until the
// reader parses the next line.
struct LogEvent {
  EventType type = EventType::kHeader;
  LogLine line;
  simdjson::dom::element body;
  [[nodiscard]] LogValue value() const { return LogValue(body); }
};

// Refuses (LogError at `line`) an object anywhere in `root` that has a key twice: JSON leaves
// the meaning to the reader, and two readers read two different games from one line.
void check_keys_once(simdjson::dom::element root, const LogLine& line);

// One line of a log, parsed as LogReader parses each line (simdjson, no key twice), for a
// reader that walks the lines itself (the recorder, which also reads `// seen` comments).
// The value lives until the next parse.
class LogJson {
 public:
  LogValue parse(std::string_view text, const LogLine& line);  // throws LogError

 private:
  simdjson::dom::parser parser_;
  std::string padded_;
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
  LogEvent parse(const LogLine& line, bool header);

  std::string_view text_;
  std::size_t pos_ = 0;
  std::uint32_t number_ = 0;
  LogLine last_;
  std::optional<LogEvent> current_;
  simdjson::dom::parser parser_;
  std::string padded_;  // a copy of a line near the end of the text, with room to read past it
};

}  // namespace rulebook::interpreter::detail
