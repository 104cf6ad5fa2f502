#include "log_reader.hpp"

#include <array>
#include <utility>

#include <fmt/format.h>

namespace rulebook::interpreter::detail {

namespace {

// The kinds of event line, by the key that marks them.
constexpr std::array<std::pair<const char*, EventType>, 8> kEventKeys{{
    {"round", EventType::kRound},
    {"shuffle", EventType::kShuffle},
    {"deal", EventType::kDeal},
    {"move", EventType::kMove},
    {"policy", EventType::kPolicy},
    {"end", EventType::kEnd},
    {"fault", EventType::kFault},
    {"stopped", EventType::kStopped},
}};

// nlohmann's messages start with "[json.exception.parse_error.101] parse error at line 1,
// column 5: "; the position is given separately, so keep what follows.
std::string parse_message(const std::string& what) {
  const std::size_t column = what.find("column ");
  if (column != std::string::npos) {
    const std::size_t colon = what.find(": ", column);
    if (colon != std::string::npos) return what.substr(colon + 2);
  }
  return what;
}

const char* json_kind(const nlohmann::json& j) {
  if (j.is_array()) return "an array";
  if (j.is_string()) return "a string";
  if (j.is_number()) return "a number";
  if (j.is_boolean()) return "true or false";
  if (j.is_null()) return "null";
  return "an object";
}

}  // namespace

const char* event_name(EventType type) {
  if (type == EventType::kHeader) return "header";
  for (const auto& [key, t] : kEventKeys) {
    if (t == type) return key;
  }
  return "?";
}

bool LogReader::next_line(LogLine& line) {
  while (pos_ < text_.size()) {
    const std::size_t newline = text_.find('\n', pos_);
    const std::size_t end = newline == std::string_view::npos ? text_.size() : newline;
    line = LogLine{++number_, pos_, end};
    pos_ = newline == std::string_view::npos ? text_.size() : newline + 1;
    if (line.end > line.begin && text_[line.end - 1] == '\r') --line.end;
    const std::string_view content = text_.substr(line.begin, line.end - line.begin);
    const std::size_t first = content.find_first_not_of(" \t");
    // Blank lines and `//` comment lines are allowed, for logs written by hand.
    if (first == std::string_view::npos || content.substr(first, 2) == "//") continue;
    last_ = line;
    return true;
  }
  return false;
}

LogEvent LogReader::parse(const LogLine& line, bool header) const {
  const std::string_view content = text_.substr(line.begin, line.end - line.begin);
  LogEvent event;
  event.line = line;
  try {
    event.body = nlohmann::json::parse(content, nullptr, true, /*ignore_comments=*/true);
  } catch (const nlohmann::json::parse_error& e) {
    const bool cut_off = line.end == text_.size() && (text_.empty() || text_.back() != '\n');
    const auto column = static_cast<std::uint32_t>(std::min<std::size_t>(e.byte == 0 ? 1 : e.byte, content.size() + 1));
    if (cut_off) {
      throw LogError(line, "", fmt::format("the last line is cut off: the log is truncated ({})", parse_message(e.what())), column);
    }
    throw LogError(line, "", fmt::format("this line is not JSON: {}", parse_message(e.what())), column);
  }
  if (!event.body.is_object()) {
    throw LogError(line, "", fmt::format("each line of a log is a JSON object, not {}", json_kind(event.body)));
  }
  if (event.body.contains("log")) {
    event.type = EventType::kHeader;
    return event;
  }
  if (header) {
    throw LogError(line, "", "not a rulebook log: the first line must be the header {\"log\":\"rulebook\",\"version\":1,...}");
  }
  int kinds = 0;
  for (const auto& [key, type] : kEventKeys) {
    if (!event.body.contains(key)) continue;
    if (++kinds > 1) {
      throw LogError(line, key, fmt::format("a line is one event, but this one has both '{}' and '{}'",
                                            event_name(event.type), key));
    }
    event.type = type;
  }
  if (kinds == 0) {
    throw LogError(line, "",
                   "unknown kind of line: expected one with a key round, shuffle, deal, move, policy, end, fault or stopped");
  }
  return event;
}

LogEvent LogReader::read_header() {
  LogLine line;
  if (!next_line(line)) throw LogError(LogLine{1, 0, 0}, "", "the log is empty: expected a header line {\"log\":\"rulebook\",...}");
  LogEvent header = parse(line, /*header=*/true);
  return header;
}

const LogEvent* LogReader::peek() {
  if (current_) return &*current_;
  LogLine line;
  if (!next_line(line)) return nullptr;
  current_ = parse(line, false);
  if (current_->type == EventType::kHeader) throw LogError(line, "log", "a second header: a log holds one game");
  return &*current_;
}

}  // namespace rulebook::interpreter::detail
