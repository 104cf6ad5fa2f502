#include "log_reader.hpp"

#include <array>
#include <utility>

#include <fmt/format.h>

namespace rulebook::interpreter::detail {

namespace {

// The kinds of event line, by the key that marks them.
constexpr std::array<std::pair<const char*, EventType>, 10> kEventKeys{{
    {"round", EventType::kRound},
    {"shuffle", EventType::kShuffle},
    {"deal", EventType::kDeal},
    {"move", EventType::kMove},
    {"policy", EventType::kPolicy},
    {"draw", EventType::kDraw},
    {"end", EventType::kEnd},
    {"fault", EventType::kFault},
    {"stopped", EventType::kStopped},
    {"cut", EventType::kCut},
}};

const char* json_kind(simdjson::dom::element j) {
  switch (j.type()) {
    case simdjson::dom::element_type::ARRAY: return "an array";
    case simdjson::dom::element_type::STRING: return "a string";
    case simdjson::dom::element_type::INT64:
    case simdjson::dom::element_type::UINT64:
    case simdjson::dom::element_type::DOUBLE: return "a number";
    case simdjson::dom::element_type::BOOL: return "true or false";
    case simdjson::dom::element_type::NULL_VALUE: return "null";
    case simdjson::dom::element_type::OBJECT: break;
  }
  return "an object";
}

}  // namespace

std::string shown(std::string_view text) {
  if (text.size() <= kShownChars) return std::string(text);
  std::size_t cut = kShownChars;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0U) == 0x80U) --cut;  // not inside a UTF-8 character
  return fmt::format("{}... ({} bytes)", text.substr(0, cut), text.size());
}

std::string LogValue::shown() const { return detail::shown(is_string() ? string() : std::string_view(dump())); }

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

LogEvent LogReader::parse(const LogLine& line, bool header) {
  const std::string_view content = text_.substr(line.begin, line.end - line.begin);
  LogEvent event;
  event.line = line;
  // simdjson reads up to SIMDJSON_PADDING bytes past the end of its input (and ignores them).
  // Inside the log the next lines are there to be read; only a line near the end of the text
  // is copied into a padded buffer.
  const char* input = content.data();
  if (line.begin + content.size() + simdjson::SIMDJSON_PADDING > text_.size()) {
    padded_.assign(content);
    padded_.resize(content.size() + simdjson::SIMDJSON_PADDING, ' ');
    input = padded_.data();
  }
  if (const auto error = parser_.parse(input, content.size(), /*realloc_if_needed=*/false).get(event.body);
      error != simdjson::SUCCESS) {
    const bool cut_off = line.end == text_.size() && (text_.empty() || text_.back() != '\n');
    if (cut_off) {
      throw LogError(line, "", fmt::format("the last line is cut off: the log is truncated ({})", simdjson::error_message(error)));
    }
    throw LogError(line, "", fmt::format("this line is not JSON: {}", simdjson::error_message(error)));
  }
  if (!event.body.is_object()) {
    throw LogError(line, "", fmt::format("each line of a log is a JSON object, not {}", json_kind(event.body)));
  }
  // One pass over the line's keys: the header has "log", an event exactly one known key.
  simdjson::dom::object members;
  if (event.body.get(members) != simdjson::SUCCESS) throw LogError(line, "", "each line of a log is a JSON object");
  bool is_header = false;
  const char* kind = nullptr;
  for (const simdjson::dom::key_value_pair member : members) {
    if (member.key == "log") {
      is_header = true;
      continue;
    }
    for (const auto& [key, type] : kEventKeys) {
      if (member.key != key) continue;
      if (kind != nullptr) {
        throw LogError(line, key, fmt::format("a line is one event, but this one has both '{}' and '{}'", kind, key));
      }
      kind = key;
      event.type = type;
    }
  }
  if (is_header) {
    event.type = EventType::kHeader;
    return event;
  }
  if (header) {
    throw LogError(line, "", "not a rulebook log: the first line must be the header {\"log\":\"rulebook\",\"version\":1,...}");
  }
  if (kind == nullptr) {
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
