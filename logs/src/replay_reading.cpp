// The Replayer's reading of log values, its notation and its diagnostics (replayer.hpp).
#include <algorithm>

#include <fmt/format.h>

#include "log_header.hpp"
#include "replayer.hpp"

namespace rulebook::interpreter::detail {

// ---- diagnostics ---------------------------------------------------------------------

grammar::SourceSpan log_span(std::string_view text, grammar::FileId file, const LogLine& line, std::string_view key,
                             std::uint32_t column) {
  const std::string_view content = text.substr(line.begin, line.end - line.begin);
  std::size_t offset = content.find_first_not_of(" \t");
  if (offset == std::string_view::npos) offset = 0;
  std::size_t length = content.size() - offset;
  if (column > 0) {
    offset = std::min<std::size_t>(column - 1, content.size());
    length = 1;
  } else if (!key.empty()) {
    const std::string quoted = fmt::format("\"{}\"", key);
    const std::size_t at = content.find(quoted);
    if (at != std::string_view::npos) {
      offset = at;
      length = quoted.size();
    }
  }
  grammar::SourceSpan s;
  s.file = file;
  s.begin = line.begin + offset;
  s.end = s.begin + length;
  s.line = s.end_line = line.number == 0 ? 1 : line.number;
  s.column = static_cast<std::uint32_t>(offset + 1);
  s.end_column = static_cast<std::uint32_t>(offset + length + 1);
  return s;
}

grammar::SourceSpan Replayer::span(const LogLine& line, std::string_view key, std::uint32_t column) const {
  return log_span(text_, log_file_, line, key, column);
}

void Replayer::stop(ReplayOutcome outcome, grammar::Code code, const LogLine& line, std::string_view key,
                    std::string message, std::vector<grammar::DiagnosticNote> notes) const {
  grammar::Diagnostic d;
  d.code = code;
  d.span = span(line, key);
  d.message = std::move(message);
  d.notes = std::move(notes);
  throw ReplayStop{outcome, std::move(d)};
}

grammar::DiagnosticNote Replayer::rule_note(std::int32_t instr, const std::string& message) const {
  if (instr < 0) return grammar::DiagnosticNote{{}, message};
  return grammar::DiagnosticNote{ir_.instr_spans[static_cast<std::size_t>(instr)], message};
}

grammar::DiagnosticNote Replayer::legal_note(const State& state) const {
  const auto& options = machine_.legal_moves(state);
  std::vector<std::string> texts;
  for (std::size_t i = 0; i < options.size() && i < kMaxListedMoves; ++i) {
    texts.push_back(state.decision->mixed >= 0 ? move_notation(state, state.decision->alternatives[i], options[i])
                                               : names_.notation(state, options[i]));
  }
  std::string more = options.size() > kMaxListedMoves ? fmt::format(" and {} more", options.size() - kMaxListedMoves) : "";
  return grammar::DiagnosticNote{{}, fmt::format("legal here for {}: {}{}", names_.who(state.decision->player),
                                                 fmt::join(texts, ", "), more)};
}

// ---- notation ------------------------------------------------------------------------

std::string Replayer::rule_text(std::int32_t rule) const {
  return rule >= 0 ? fmt::format("rule '{}'", ir_.labels[static_cast<std::size_t>(rule)]) : "an unlabelled rule";
}

std::string Replayer::waiting_text(const State& state) const {
  const Decision& d = *state.decision;
  return fmt::format("{} to choose in {} ({})", names_.who(d.player), rule_text(d.rule),
                     machine_.where(ir_.instr_spans[static_cast<std::size_t>(d.instr)]));
}

// ---- log values ----------------------------------------------------------------------

LogValue Replayer::field(const LogEvent& event, LogValue object, const char* key, const char* what) const {
  const std::optional<LogValue> value = object.find(key);
  if (!value) bad_log(event.line, "", fmt::format("a {} line needs \"{}\" ({})", event_name(event.type), key, what));
  return *value;
}

Value Replayer::choice_of(const State& state, const LogLine& line, LogValue j, const Value& shape) {
  // A value of the wrong type is a log the reader cannot take (exit 2), like a name the game
  // does not have; a well-formed choice the rules do not allow is an illegal step (exit 1).
  auto wrong = [&](const char* expected) {
    bad_log(line, "choice", fmt::format("the rules ask for {} here, not {}", expected, j.shown()));
  };
  const auto scalar = [&](Kind kind, std::int32_t enum_id, LogValue x) -> Value {
    switch (kind) {
      case Kind::kInt:
        if (!x.is_integer()) wrong("a number");
        return Value::integer(x.integer());
      case Kind::kBool:
        if (!x.is_bool()) wrong("true or false");
        return Value::boolean(x.boolean());
      case Kind::kPlayer:
        if (!x.is_integer() && !x.is_string()) wrong("a player");
        return Value::player(names_.player(line, x, "choice"));
      case Kind::kCard: return Value::card(names_.card(state, line, x, "choice"));
      case Kind::kEnum:
        if (enum_id < 0) wrong("a name");
        if (!x.is_string()) {
          const ir::EnumInfo& info = ir_.enums[static_cast<std::size_t>(enum_id)];
          bad_log(line, "choice", fmt::format("the rules ask for a value of {} by name ({}) here, not {}", info.name,
                                              fmt::join(info.values, ", "), x.shown()));
        }
        return Value::enumeration(enum_id, names_.enum_value(line, x, enum_id));
      default: wrong("a value this log format cannot write");
    }
    return Value::none();
  };
  if (shape.kind != Kind::kSet && shape.kind != Kind::kPlayerSet) return scalar(shape.kind, shape.enum_id, j);
  if (!j.is_array()) wrong("a list");
  std::vector<std::int64_t> items;
  j.each([&](LogValue x) {
    if (shape.element == Kind::kPlayerSet) {
      if (!x.is_array()) wrong("a list of lists of players");
      std::uint64_t mask = 0;
      x.each([&](LogValue p) { mask |= std::uint64_t{1} << names_.player(line, p, "choice"); });
      items.push_back(static_cast<std::int64_t>(mask));
    } else {
      items.push_back(scalar(shape.element, shape.enum_id, x).scalar);
    }
  });
  std::sort(items.begin(), items.end());
  if (std::adjacent_find(items.begin(), items.end()) != items.end()) {
    bad_log(line, "choice", "a choice of a set lists an item twice");
  }
  return Value::set(shape.element, std::move(items), shape.enum_id);
}

std::int32_t Replayer::rule_of(const LogLine& line, LogValue body) const {
  const std::optional<LogValue> rule = body.find("rule");
  return !rule || rule->is_null() ? -2 : names_.rule(line, *rule);
}

// ---- the header ----------------------------------------------------------------------

GameConfig Replayer::read_header() {
  detail::LogHeader header = detail::read_log_header(reader_, machine_, options_.options, options_.strict);
  header_line_ = header.line;
  for (const auto& [key, message] : header.warnings) result_.diagnostics.warning(grammar::Code::kLogHeader, span(header.line, key), message);
  names_ = LogNames(machine_, header.seats, std::move(header.names));
  for (std::int32_t p = 0; p < header.seats; ++p) result_.seat_names.push_back(names_.who(p));
  return header.config;
}

}  // namespace rulebook::interpreter::detail
