#include "log_reader.hpp"

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "rulebook/grammar/printable.hpp"

namespace rulebook::interpreter::detail {

namespace {


// The kinds of event line, by the key that marks them, and the members each may have: at
// the top (besides its key) and in its object. Any other is refused: a misspelt "winner" on
// an end line left the winners unchecked and the replay passed (the ninth probe). Header keys
// are only warned about (is_known_header_key): other tools add to the header, while every
// event member is something replay checks.
struct EventKind {
  const char* key;
  EventType type;
  std::array<const char*, 2> top;   // other members of the line
  std::array<const char*, 6> body;  // members of the event's object
};
constexpr std::array<EventKind, 10> kEventKinds{{
    {"round", EventType::kRound, {}, {}},
    {"shuffle", EventType::kShuffle, {"cards", "top"}, {}},
    {"deal", EventType::kDeal, {}, {"cards", "from", "to"}},
    {"move", EventType::kMove, {}, {"alternative", "choice", "player", "rule"}},
    {"policy", EventType::kPolicy, {}, {"choice", "player", "rule"}},  // a policy's choice has no alternative written
    {"draw", EventType::kDraw, {}, {"choice", "rule"}},
    {"end", EventType::kEnd, {}, {"winners", "scores", "payoffs", "rounds", "moves", "unrecorded"}},
    {"fault", EventType::kFault, {}, {"message", "rule", "at", "rounds", "moves", "unrecorded"}},
    {"stopped", EventType::kStopped, {}, {"reason", "max_moves", "rounds", "moves", "unrecorded"}},
    {"cut", EventType::kCut, {}, {"reason", "rounds", "moves"}},
}};
template <std::size_t N>
bool listed(const std::array<const char*, N>& names, std::string_view key) {
  return std::any_of(names.begin(), names.end(), [&](const char* n) { return n != nullptr && key == n; });
}

template <std::size_t N>
std::string listing(const std::array<const char*, N>& names) {
  std::string out;
  for (const char* n : names) {
    if (n == nullptr) continue;
    out += out.empty() ? "" : ", ";
    out += n;
  }
  return out.empty() ? std::string("none") : out;
}

void check_event_members(simdjson::dom::object line_members, const EventKind& allowed, const LogLine& line) {
  const char* kind = allowed.key;
  simdjson::dom::element body;
  for (const simdjson::dom::key_value_pair member : line_members) {
    if (member.key == kind) {
      body = member.value;
      continue;
    }
    if (!listed(allowed.top, member.key)) {
      throw LogError(line, std::string(member.key),
                     fmt::format("a '{}' line has no member '{}': its members are {}{}{} (one replay does not know would go "
                                 "unchecked)",
                                 kind, shown(member.key), kind, allowed.top[0] != nullptr ? ", " : "",
                                 allowed.top[0] != nullptr ? listing(allowed.top) : ""));
    }
  }
  simdjson::dom::object fields;
  if (body.get(fields) != simdjson::SUCCESS) return;  // not an object: the replay says what it should be
  for (const simdjson::dom::key_value_pair member : fields) {
    if (!listed(allowed.body, member.key)) {
      throw LogError(line, std::string(member.key),
                     fmt::format("the object of a '{}' line has no member '{}': its members are {} (one replay does not "
                                 "know would go unchecked)",
                                 kind, shown(member.key), listing(allowed.body)));
    }
  }
}

// Why a line did not parse. A whole number past 64 bits is JSON, but not one a log can
// hold: "this line is not JSON" misled there (the ninth probe).
std::string not_json(simdjson::error_code error) {
  if (error == simdjson::NUMBER_ERROR) {
    return "a number in this line cannot be read: it is malformed, or a whole number beyond 64 bits, more than any "
           "count or value of a log";
  }
  return fmt::format("this line is not JSON: {}", simdjson::error_message(error));
}

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

void check_keys_once(simdjson::dom::element root, const LogLine& line) {
  // JSON leaves a repeated key to the reader: simdjson finds the first, nlohmann kept the last,
  // so `replay` and `record` read two different games from one line. Every reader of logs
  // refuses it instead. An explicit stack: a line nests up to simdjson's 1,024 levels.
  std::vector<simdjson::dom::element> pending{root};
  std::vector<std::string_view> keys;
  while (!pending.empty()) {
    const simdjson::dom::element e = pending.back();
    pending.pop_back();
    if (simdjson::dom::array items; e.get(items) == simdjson::SUCCESS) {
      for (const simdjson::dom::element item : items) {
        if (item.is_array() || item.is_object()) pending.push_back(item);
      }
      continue;
    }
    simdjson::dom::object members;
    if (e.get(members) != simdjson::SUCCESS) continue;
    keys.clear();
    for (const simdjson::dom::key_value_pair member : members) {
      keys.push_back(member.key);
      if (member.value.is_array() || member.value.is_object()) pending.push_back(member.value);
    }
    std::sort(keys.begin(), keys.end());
    const auto twice = std::adjacent_find(keys.begin(), keys.end());
    if (twice != keys.end()) {
      throw LogError(line, std::string(*twice),
                     fmt::format("the key \"{}\" appears twice in one object; a log gives each key once",
                                 shown(*twice)));
    }
  }
}

LogValue LogJson::parse(std::string_view text, const LogLine& line) {
  padded_.assign(text);
  padded_.resize(text.size() + simdjson::SIMDJSON_PADDING, ' ');
  simdjson::dom::element body;
  if (const auto error = parser_.parse(padded_.data(), text.size(), /*realloc_if_needed=*/false).get(body);
      error != simdjson::SUCCESS) {
    throw LogError(line, "", not_json(error));
  }
  check_keys_once(body, line);
  return LogValue(body);
}

std::string shown(std::string_view text) {
  // Control characters written out (grammar::printable): a log's text reaches the terminal.
  return grammar::printable_short(text, kShownChars);
}

std::string LogValue::shown() const { return detail::shown(is_string() ? string() : std::string_view(dump())); }

const char* event_name(EventType type) {
  if (type == EventType::kHeader) return "header";
  for (const EventKind& kind : kEventKinds) {
    if (kind.type == type) return kind.key;
  }
  return "?";
}

bool LogReader::next_line(LogLine& line) {
  // A byte-order mark before the first line, as an editor may save a log written by hand
  // (rule files allow one too); it read as "this line is not JSON" at 1:1.
  if (pos_ == 0 && text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
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
    throw LogError(line, "", not_json(error));
  }
  if (!event.body.is_object()) {
    throw LogError(line, "", fmt::format("each line of a log is a JSON object, not {}", json_kind(event.body)));
  }
  check_keys_once(event.body, line);
  // One pass over the line's keys: the header has "log", an event exactly one known key.
  simdjson::dom::object members;
  if (event.body.get(members) != simdjson::SUCCESS) throw LogError(line, "", "each line of a log is a JSON object");
  bool is_header = false;
  const EventKind* kind = nullptr;
  for (const simdjson::dom::key_value_pair member : members) {
    if (member.key == "log") {
      is_header = true;
      continue;
    }
    for (const EventKind& k : kEventKinds) {
      if (member.key != k.key) continue;
      if (kind != nullptr) {
        throw LogError(line, k.key, fmt::format("a line is one event, but this one has both '{}' and '{}'", kind->key, k.key));
      }
      kind = &k;
      event.type = k.type;
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
  check_event_members(members, *kind, line);
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
