// Replay: runs the machine with the log as its only source of shuffles, and compares every
// event the rules produce with the log, line by line. The Replayer is the machine's event
// sink: the rules drive, the log is read as they go, so a log of any length is never held
// in memory as a whole.
#include "rulebook/interpreter/replay.hpp"

#include <algorithm>
#include <charconv>
#include <type_traits>
#include <unordered_map>

#include <fmt/format.h>

#include "log_reader.hpp"
#include "rulebook/grammar/suggest.hpp"
#include "rulebook/interpreter/log.hpp"

namespace rulebook::interpreter {

namespace {

using detail::EventType;
using detail::LogError;
using detail::LogEvent;
using detail::LogLine;
using detail::LogValue;

// Stops the replay with its outcome; the diagnostic says why.
struct ReplayStop {
  ReplayOutcome outcome;
  grammar::Diagnostic diagnostic;
};

// The log ended where the rules need more of it (a shuffle result, a move).
struct LogEnded {
  std::string waiting;  // what the rules wait for
  State state;
};

constexpr std::size_t kMaxListedMoves = 24;

// " (did you mean 'QS'?)" when a name in `names` (a list, or a map by name) is close to
// `name`, else "".
template <class Names>
std::string did_you_mean(std::string_view name, const Names& names) {
  grammar::ClosestName closest(name);
  for (const auto& candidate : names) {
    if constexpr (std::is_convertible_v<decltype(candidate), std::string_view>) {
      closest.consider(candidate);
    } else {
      closest.consider(candidate.first);
    }
  }
  return closest.best().empty() ? std::string() : fmt::format(" (did you mean '{}'?)", closest.best());
}


// Maps by name that can be searched with a string_view from the log (no allocation per line).
struct NameHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};
template <class T>
using NameMap = std::unordered_map<std::string, T, NameHash, std::equal_to<>>;

class Replayer : public EventSink {
 public:
  Replayer(const Machine& machine, const grammar::SourceManager& sources, grammar::FileId log_file,
           const ReplayOptions& options, ReplayResult& result)
      : machine_(machine),
        ir_(machine.ir()),
        log_file_(log_file),
        text_(sources.file(log_file).text),
        options_(options),
        result_(result),
        reader_(text_) {}

  void run();

  // EventSink: what the rules do, compared with the log as it happens.
  bool shuffle_result(const State& state, std::int32_t zone, std::vector<CardId>& cards) override;
  void dealt(const State& state, std::int32_t from, std::int32_t to, const std::vector<CardId>& cards) override;
  void chose(const State& state, PlayerId player, std::int32_t rule, const Value& choice, bool by_policy) override;
  void round_started(const State& state) override;

 private:
  GameConfig read_header();
  void check_move(State& state, const LogEvent& event);
  void check_end(const State& state);
  void finish_fault(const State& state);

  // Log values to game values.
  [[nodiscard]] LogValue field(const LogEvent& event, LogValue object, const char* key, const char* what) const;
  [[nodiscard]] PlayerId player_of(const LogEvent& event, LogValue j, const char* key) const;
  [[nodiscard]] std::int32_t zone_of(const LogEvent& event, LogValue j, const char* key) const;
  [[nodiscard]] CardId card_of(const State& state, const LogEvent& event, LogValue j, const char* key);
  [[nodiscard]] std::vector<CardId> cards_of(const State& state, const LogEvent& event, LogValue j, const char* key);
  [[nodiscard]] Value choice_of(const State& state, const LogEvent& event, LogValue j, const Value& shape);
  [[nodiscard]] std::int32_t rule_of(const LogEvent& event, LogValue j) const;

  // Game values in log notation, seats by name.
  [[nodiscard]] std::string notation(const State& state, const Value& v) const;
  [[nodiscard]] std::string zone_text(std::int32_t instance) const;
  [[nodiscard]] std::string cards_text(const State& state, const std::vector<CardId>& cards) const;
  [[nodiscard]] std::string rule_text(std::int32_t rule) const;
  [[nodiscard]] std::string waiting_text(const State& state) const;
  // A player in messages: its name, or `player 2` when the log names no seats.
  [[nodiscard]] std::string who(PlayerId p) const {
    return named_ ? names_[static_cast<std::size_t>(p)] : fmt::format("player {}", p);
  }

  // Diagnostics.
  [[nodiscard]] grammar::SourceSpan span(const LogLine& line, std::string_view key = {}, std::uint32_t column = 0) const;
  [[noreturn]] void bad_log(const LogEvent& event, std::string_view key, std::string message) const;
  [[noreturn]] void stop(ReplayOutcome outcome, const LogEvent& event, std::string_view key, std::string message,
                         std::vector<grammar::DiagnosticNote> notes) const;
  [[nodiscard]] grammar::DiagnosticNote rule_note(std::int32_t instr, const std::string& message) const;
  [[nodiscard]] grammar::DiagnosticNote legal_note(const State& state) const;
  // Counts a decision (line 0: an automated one the log leaves out) and traces it if asked.
  void record_step(std::uint32_t line, PlayerId player, const Value& choice, std::int32_t instr, bool by_policy,
                   const State& state);

  const Machine& machine_;
  const Ir& ir_;
  grammar::FileId log_file_;
  std::string_view text_;
  const ReplayOptions& options_;
  ReplayResult& result_;
  detail::LogReader reader_;
  LogLine header_line_;

  std::int32_t seats_ = 0;
  std::int32_t players_ = 0;
  std::vector<std::string> names_;  // by player identity; the number when the log names none
  bool named_ = false;
  NameMap<PlayerId> player_by_name_;
  NameMap<std::int32_t> zone_by_name_;
  NameMap<CardId> card_by_name_;
  NameMap<std::int32_t> label_by_name_;
};

// ---- diagnostics ---------------------------------------------------------------------

// The span of a log line, or of `"key"` in it, or of one column.
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

void Replayer::stop(ReplayOutcome outcome, const LogEvent& event, std::string_view key, std::string message,
                    std::vector<grammar::DiagnosticNote> notes) const {
  grammar::Diagnostic d;
  d.span = span(event.line, key);
  d.message = std::move(message);
  d.notes = std::move(notes);
  throw ReplayStop{outcome, std::move(d)};
}

void Replayer::bad_log(const LogEvent& event, std::string_view key, std::string message) const {
  stop(ReplayOutcome::kBadLog, event, key, std::move(message), {});
}

grammar::DiagnosticNote Replayer::rule_note(std::int32_t instr, const std::string& message) const {
  if (instr < 0) return grammar::DiagnosticNote{{}, message};
  return grammar::DiagnosticNote{ir_.code[static_cast<std::size_t>(instr)].span, message};
}

grammar::DiagnosticNote Replayer::legal_note(const State& state) const {
  const auto& options = machine_.legal_moves(state);
  std::vector<std::string> texts;
  for (std::size_t i = 0; i < options.size() && i < kMaxListedMoves; ++i) texts.push_back(notation(state, options[i]));
  std::string more = options.size() > kMaxListedMoves ? fmt::format(" and {} more", options.size() - kMaxListedMoves) : "";
  return grammar::DiagnosticNote{{}, fmt::format("legal here for {}: {}{}", who(state.decision->player),
                                                 fmt::join(texts, ", "), more)};
}

// ---- notation ------------------------------------------------------------------------

std::string Replayer::notation(const State& state, const Value& v) const {
  switch (v.kind) {
    case Kind::kPlayer:
      if (v.scalar < 0 || v.scalar >= static_cast<std::int64_t>(names_.size())) return "none";
      return names_[static_cast<std::size_t>(v.scalar)];  // log notation: the name or the number
    case Kind::kSet:
    case Kind::kPlayerSet: {
      std::vector<std::string> parts;
      for (const std::int64_t x : v.items) {
        if (v.element == Kind::kPlayerSet) {
          std::vector<std::string> inner;
          for (std::int64_t p = 0; p < 64; ++p) {
            if ((static_cast<std::uint64_t>(x) >> p) & 1U) inner.push_back(notation(state, Value::player(p)));
          }
          parts.push_back(fmt::format("[{}]", fmt::join(inner, ",")));
        } else {
          Value e;
          e.kind = v.element;
          e.enum_id = v.enum_id;
          e.scalar = x;
          parts.push_back(notation(state, e));
        }
      }
      return fmt::format("[{}]", fmt::join(parts, ","));
    }
    default: return machine_.value_text(state, v);
  }
}

std::string Replayer::zone_text(std::int32_t instance) const {
  const std::string& name = machine_.zone_name(instance);
  const std::size_t open = name.find('(');
  if (!named_ || open == std::string::npos) return name;
  const std::size_t player = std::stoul(name.substr(open + 1, name.size() - open - 2));
  return fmt::format("{}({})", name.substr(0, open), player < names_.size() ? names_[player] : "?");
}

std::string Replayer::cards_text(const State& state, const std::vector<CardId>& cards) const {
  std::vector<std::string> names;
  for (const CardId c : cards) names.push_back(machine_.card_name(state, c));
  return names.empty() ? "no cards" : fmt::format("{}", fmt::join(names, " "));
}

std::string Replayer::rule_text(std::int32_t rule) const {
  return rule >= 0 ? fmt::format("rule '{}'", ir_.labels[static_cast<std::size_t>(rule)]) : "an unlabelled rule";
}

std::string Replayer::waiting_text(const State& state) const {
  const Decision& d = *state.decision;
  return fmt::format("{} to choose in {} ({})", who(d.player), rule_text(d.rule),
                     machine_.where(ir_.code[static_cast<std::size_t>(d.instr)].span));
}

// ---- log values ----------------------------------------------------------------------

LogValue Replayer::field(const LogEvent& event, LogValue object, const char* key, const char* what) const {
  const std::optional<LogValue> value = object.find(key);
  if (!value) bad_log(event, "", fmt::format("a {} line needs \"{}\" ({})", event_name(event.type), key, what));
  return *value;
}

PlayerId Replayer::player_of(const LogEvent& event, LogValue j, const char* key) const {
  std::int64_t p = -1;
  if (j.is_integer()) {
    p = j.integer();
  } else if (j.is_string()) {
    const auto it = player_by_name_.find(j.string());
    if (it == player_by_name_.end()) {
      bad_log(event, key, fmt::format("unknown seat '{}' (seats: {})", j.text(), fmt::join(names_, ", ")));
    }
    p = it->second;
  } else {
    bad_log(event, key, fmt::format("a player is a seat name or a number, not {}", j.dump()));
  }
  if (p < 0 || p >= seats_) {
    bad_log(event, key, fmt::format("unknown seat {}: the table has seats 0 to {}", p, seats_ - 1));
  }
  return static_cast<PlayerId>(p);
}

std::int32_t Replayer::zone_of(const LogEvent& event, LogValue j, const char* key) const {
  if (!j.is_string()) bad_log(event, key, fmt::format("a zone is a name such as \"deck\" or \"hand(1)\", not {}", j.dump()));
  const auto it = zone_by_name_.find(j.string());
  if (it != zone_by_name_.end()) return it->second;
  const std::string name = j.text();
  const std::size_t open = name.find('(');
  if (open != std::string::npos && name.back() == ')') {
    const std::string base = name.substr(0, open);
    const std::string seat = name.substr(open + 1, name.size() - open - 2);
    const bool zone_exists = std::any_of(ir_.zones.begin(), ir_.zones.end(),
                                         [&](const ZoneInfo& z) { return z.name == base && z.per_player; });
    if (zone_exists) bad_log(event, key, fmt::format("zone '{}': unknown seat '{}' (seats: {})", name, seat, fmt::join(names_, ", ")));
  }
  bad_log(event, key, fmt::format("no zone '{}' in these rules{}", name, did_you_mean(name, zone_by_name_)));
}

CardId Replayer::card_of(const State& state, const LogEvent& event, LogValue j, const char* key) {
  if (card_by_name_.empty()) {
    for (std::size_t c = 0; c < state.cards->size(); ++c) card_by_name_[(*state.cards)[c].name] = static_cast<CardId>(c);
  }
  if (!j.is_string()) bad_log(event, key, fmt::format("a card is a name such as \"7H\", not {}", j.dump()));
  const auto it = card_by_name_.find(j.string());
  if (it == card_by_name_.end()) {
    bad_log(event, key, fmt::format("no card '{}' in this game{} (cards are named like {})", j.text(), did_you_mean(j.string(), card_by_name_),
                                    machine_.card_name(state, 0)));
  }
  return it->second;
}

std::vector<CardId> Replayer::cards_of(const State& state, const LogEvent& event, LogValue j, const char* key) {
  if (!j.is_array()) bad_log(event, key, fmt::format("\"{}\" is a list of cards, not {}", key, j.dump()));
  std::vector<CardId> cards;
  cards.reserve(j.size());
  j.each([&](LogValue item) {
    const CardId c = card_of(state, event, item, key);
    if (std::find(cards.begin(), cards.end(), c) != cards.end()) {
      bad_log(event, key, fmt::format("card {} appears twice", machine_.card_name(state, c)));
    }
    cards.push_back(c);
  });
  return cards;
}

Value Replayer::choice_of(const State& state, const LogEvent& event, LogValue j, const Value& shape) {
  auto wrong = [&](const char* expected) {
    stop(ReplayOutcome::kIllegal, event, "choice",
         fmt::format("the rules ask for {} here, not {}", expected, j.dump()), {});
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
        return Value::player(player_of(event, x, "choice"));
      case Kind::kCard: return Value::card(card_of(state, event, x, "choice"));
      case Kind::kEnum: {
        if (!x.is_string() || enum_id < 0) wrong("a name");
        const auto& values = ir_.enums[static_cast<std::size_t>(enum_id)].values;
        const auto it = std::find(values.begin(), values.end(), x.text());
        if (it == values.end()) {
          bad_log(event, "choice", fmt::format("'{}' is not a value of {} ({})", x.text(),
                                               ir_.enums[static_cast<std::size_t>(enum_id)].name, fmt::join(values, ", ")));
        }
        return Value::enumeration(enum_id, it - values.begin());
      }
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
      x.each([&](LogValue p) { mask |= std::uint64_t{1} << player_of(event, p, "choice"); });
      items.push_back(static_cast<std::int64_t>(mask));
    } else {
      items.push_back(scalar(shape.element, shape.enum_id, x).scalar);
    }
  });
  std::sort(items.begin(), items.end());
  if (std::adjacent_find(items.begin(), items.end()) != items.end()) {
    bad_log(event, "choice", "a choice of a set lists an item twice");
  }
  return Value::set(shape.element, std::move(items), shape.enum_id);
}

std::int32_t Replayer::rule_of(const LogEvent& event, LogValue j) const {
  const std::optional<LogValue> rule = j.find("rule");
  if (!rule || rule->is_null()) return -2;  // not given
  if (!rule->is_string()) bad_log(event, "rule", fmt::format("a rule is given by its label, not {}", rule->dump()));
  const auto it = label_by_name_.find(rule->string());
  if (it == label_by_name_.end()) {
    bad_log(event, "rule", fmt::format("no rule labelled '{}' in these rules{}", rule->text(), did_you_mean(rule->string(), ir_.labels)));
  }
  return it->second;
}

// ---- the header ----------------------------------------------------------------------

GameConfig Replayer::read_header() {
  const LogEvent header = reader_.read_header();
  header_line_ = header.line;
  const LogValue h = header.value();
  if (!h.at("log").is("rulebook")) bad_log(header, "log", "not a rulebook log: \"log\" must be \"rulebook\"");
  if (!h.contains("version")) bad_log(header, "", "the header needs \"version\" (the format version, 1)");
  if (!h.at("version").is_integer() || h.at("version").integer() != kLogVersion) {
    bad_log(header, "version", fmt::format("unknown log format version {}: this rulebook reads version {}",
                                           h.at("version").dump(), kLogVersion));
  }
  static const std::vector<std::string> kKnown = {"log", "version", "ruleset", "files", "hash", "players", "seats",
                                                  "names", "automated", "options", "seed"};
  h.each_member([&](std::string_view key, LogValue) {
    if (std::find(kKnown.begin(), kKnown.end(), key) == kKnown.end()) {
      result_.diagnostics.warning(span(header.line, key), fmt::format("unknown header key '{}' (ignored)", key));
    }
  });
  if (h.contains("hash")) {
    LogValue hash = h.at("hash");
    if (!hash.is_string()) bad_log(header, "hash", "\"hash\" is a string of hex digits");
    if (hash.text() != ir_.source_hash) {
      const std::string message = fmt::format("the log was written for other rule files (hash {}, these rules {})",
                                              hash.text(), ir_.source_hash);
      if (options_.strict) bad_log(header, "hash", message + "; --strict makes this an error");
      result_.diagnostics.warning(span(header.line, "hash"), message);
    }
  }
  if (h.contains("ruleset") && !h.at("ruleset").is(ir_.title)) {
    result_.diagnostics.warning(span(header.line, "ruleset"),
                                fmt::format("the log is of '{}', these rules are '{}'",
                                            h.at("ruleset").text(), ir_.title));
  }

  GameConfig config;
  if (!h.contains("players")) bad_log(header, "", "the header needs \"players\" (the number of human players)");
  LogValue players = h.at("players");
  if (!players.is_integer() || players.integer() < ir_.players_min ||
      players.integer() > ir_.players_max) {
    bad_log(header, "players", fmt::format("'{}' is for {} to {} players, not {}", ir_.title, ir_.players_min,
                                           ir_.players_max, players.dump()));
  }
  config.players = players.integer();
  players_ = static_cast<std::int32_t>(config.players);
  seats_ = static_cast<std::int32_t>(ir_.fixed_seats ? ir_.seats : config.players);
  if (h.contains("seats") && !h.at("seats").is(seats_)) {
    bad_log(header, "seats", fmt::format("these rules seat {} with {} players, not {}", seats_, players_, h.at("seats").dump()));
  }
  if (h.contains("automated")) {
    LogValue automated = h.at("automated");
    bool ok = automated.is_array() && automated.size() == static_cast<std::size_t>(seats_);
    std::int32_t p = 0;
    if (ok) {
      automated.each([&](LogValue a) {
        ok = ok && a.is_bool() && a.boolean() == (p >= players_);
        ++p;
      });
    }
    if (!ok) {
      bad_log(header, "automated",
              fmt::format("with {} players the first {} seats are human and the other {} automated; \"automated\" says otherwise",
                          players_, players_, seats_ - players_));
    }
  }
  for (std::int32_t p = 0; p < seats_; ++p) names_.push_back(std::to_string(p));
  if (h.contains("names")) {
    LogValue names = h.at("names");
    if (!names.is_array() || names.size() != static_cast<std::size_t>(seats_)) {
      bad_log(header, "names", fmt::format("\"names\" lists one name per seat: {} names", seats_));
    }
    std::size_t p = 0;
    names.each([&](LogValue name) {
      if (!name.is_string() || name.text().empty()) bad_log(header, "names", "a seat name is a non-empty string");
      const std::string text = name.text();
      if (text.find_first_not_of("0123456789") == std::string::npos) {
        bad_log(header, "names", fmt::format("seat name '{}' is a number: numbers already name seats by position", text));
      }
      if (text.find_first_of("()") != std::string::npos) bad_log(header, "names", fmt::format("seat name '{}' has a parenthesis", text));
      if (player_by_name_.count(text) != 0) bad_log(header, "names", fmt::format("seat name '{}' is given twice", text));
      player_by_name_[text] = static_cast<PlayerId>(p);
      names_[p++] = text;
    });
    named_ = true;
  }
  for (std::int32_t p = 0; p < seats_; ++p) player_by_name_.emplace(std::to_string(p), p);
  for (std::size_t l = 0; l < ir_.labels.size(); ++l) label_by_name_.emplace(ir_.labels[l], static_cast<std::int32_t>(l));
  for (std::int32_t z = 0; z < ir_.zone_instances; ++z) {
    zone_by_name_[machine_.zone_name(z)] = z;
    zone_by_name_[zone_text(z)] = z;
  }
  // Per-player zones of seats beyond this table do not exist in this game.
  for (const ZoneInfo& z : ir_.zones) {
    if (!z.per_player) continue;
    for (std::int64_t p = seats_; p < ir_.seats; ++p) zone_by_name_.erase(machine_.zone_name(z.first_instance + static_cast<std::int32_t>(p)));
  }

  if (h.contains("options")) {
    LogValue options = h.at("options");
    if (!options.is_object()) bad_log(header, "options", "\"options\" is an object of option values");
    options.each_member([&](std::string_view option, LogValue value) {
      const std::string name(option);
      if (value.is_bool()) {
        config.options[name] = value.boolean() ? "true" : "false";
      } else if (value.is_integer()) {
        config.options[name] = std::to_string(value.integer());
      } else if (value.is_string()) {
        config.options[name] = value.text();
      } else {
        bad_log(header, "options", fmt::format("option '{}': a value is a number, true/false or a name, not {}", name, value.dump()));
      }
    });
  }
  for (const auto& [name, value] : options_.options) {
    const auto it = config.options.find(name);
    if (it != config.options.end() && it->second != value) {
      result_.diagnostics.warning(span(header.line, "options"),
                                  fmt::format("--option {}={} overrides the log's {}={}", name, value, name, it->second));
    }
    config.options[name] = value;
  }
  for (std::int32_t p = 0; p < seats_; ++p) result_.seat_names.push_back(who(p));
  return config;
}

// ---- the replay ----------------------------------------------------------------------

void Replayer::record_step(std::uint32_t line, PlayerId player, const Value& choice, std::int32_t instr,
                           bool by_policy, const State& state) {
  ++result_.steps;
  if (!options_.trace) return;
  const std::int32_t rule = ir_.code[static_cast<std::size_t>(instr)].rule;
  result_.trace.push_back(ReplayStep{result_.steps, line, who(player),
                                     notation(state, choice),
                                     rule >= 0 ? ir_.labels[static_cast<std::size_t>(rule)] : std::string(),
                                     machine_.where(ir_.code[static_cast<std::size_t>(instr)].span), by_policy});
}

bool Replayer::shuffle_result(const State& state, std::int32_t zone, std::vector<CardId>& cards) {
  const std::string where = machine_.where(ir_.code[static_cast<std::size_t>(state.pc)].span);
  const LogEvent* event = reader_.peek();
  if (event == nullptr) throw LogEnded{fmt::format("the result of shuffling {} ({})", zone_text(zone), where), state};
  if (event->type != EventType::kShuffle) {
    bad_log(*event, "", fmt::format("the rules shuffle {} here ({}), but the log has a {} line: a log gives the result of every shuffle",
                                    zone_text(zone), where, event_name(event->type)));
  }
  const std::int32_t logged = zone_of(*event, event->value().at("shuffle"), "shuffle");
  if (logged != zone) {
    bad_log(*event, "shuffle", fmt::format("the rules shuffle {} here ({}), not {}", zone_text(zone), where, zone_text(logged)));
  }
  const bool full = event->value().contains("cards");
  if (!full && !event->value().contains("top")) {
    bad_log(*event, "", "a shuffle line gives the result as \"cards\" (all of them, bottom to top) or \"top\" (from the top down)");
  }
  const char* key = full ? "cards" : "top";
  const std::vector<CardId> listed = cards_of(state, *event, event->value().at(key), key);
  for (const CardId c : listed) {
    if (state.card_zone[static_cast<std::size_t>(c)] != zone) {
      bad_log(*event, key, fmt::format("{} is not in {} but in {}", machine_.card_name(state, c), zone_text(zone),
                                       zone_text(state.card_zone[static_cast<std::size_t>(c)])));
    }
  }
  if (full && listed.size() != cards.size()) {
    std::vector<CardId> missing;
    for (const CardId c : cards) {
      if (std::find(listed.begin(), listed.end(), c) == listed.end()) missing.push_back(c);
    }
    bad_log(*event, key, fmt::format("{} holds {} cards; the shuffle leaves out {}", zone_text(zone), cards.size(),
                                     cards_text(state, missing)));
  }
  if (full) {
    cards = listed;
  } else {
    // The cards not listed stay below, in the order they had; the listed ones go on top.
    std::vector<CardId> order;
    for (const CardId c : cards) {
      if (std::find(listed.begin(), listed.end(), c) == listed.end()) order.push_back(c);
    }
    order.insert(order.end(), listed.rbegin(), listed.rend());
    cards = std::move(order);
  }
  reader_.advance();
  return true;
}

void Replayer::dealt(const State& state, std::int32_t from, std::int32_t to, const std::vector<CardId>& cards) {
  // Deal lines may be left out; one that is given must describe the next deal between its zones.
  const LogEvent* event = reader_.peek();
  if (event == nullptr || event->type != EventType::kDeal) return;
  LogValue deal = event->value().at("deal");
  const std::int32_t logged_from = zone_of(*event, field(*event, deal, "from", "the zone dealt from"), "from");
  const std::int32_t logged_to = zone_of(*event, field(*event, deal, "to", "the zone dealt to"), "to");
  if (logged_from != from || logged_to != to) return;
  const LogValue logged_cards = field(*event, deal, "cards", "the cards dealt, in order");
  bool same = logged_cards.is_array() && logged_cards.size() == cards.size();
  std::size_t i = 0;
  if (same) logged_cards.each([&](LogValue c) { same = same && card_of(state, *event, c, "cards") == cards[i++]; });
  if (!same) {
    const std::vector<CardId> logged = cards_of(state, *event, logged_cards, "cards");  // reports unknown or repeated cards
    bad_log(*event, "cards", fmt::format("the rules deal {} from {} to {} here ({}), not {}: the shuffles before do not give this deal",
                                         cards_text(state, cards), zone_text(from), zone_text(to),
                                         machine_.where(ir_.code[static_cast<std::size_t>(state.pc)].span),
                                         cards_text(state, logged)));
  }
  reader_.advance();
}

void Replayer::round_started(const State& state) {
  const LogEvent* event = reader_.peek();
  if (event == nullptr || event->type != EventType::kRound) return;
  if (!event->value().at("round").is(state.rounds)) {
    bad_log(*event, "round", fmt::format("round {} starts here, not round {}", state.rounds, event->value().at("round").dump()));
  }
  reader_.advance();
}

void Replayer::chose(const State& state, PlayerId player, std::int32_t rule, const Value& choice, bool by_policy) {
  if (!by_policy) return;  // a move of the log, checked before it was applied
  const LogEvent* event = reader_.peek();
  // Automated decisions may be left out of a log; a policy line, or a move line of this
  // player, is the record of this one.
  if (event == nullptr) {
    record_step(0, player, choice, state.pc, true, state);
    return;
  }
  const bool is_policy = event->type == EventType::kPolicy;
  const bool is_move = event->type == EventType::kMove;
  if (!is_policy && !is_move) {
    record_step(0, player, choice, state.pc, true, state);
    return;
  }
  LogValue body = event->value().at(is_policy ? "policy" : "move");
  const PlayerId logged_player = player_of(*event, field(*event, body, "player", "who decides"), "player");
  if (is_move && logged_player != player) {
    record_step(0, player, choice, state.pc, true, state);
    return;
  }
  if (logged_player != player) {
    stop(ReplayOutcome::kIllegal, *event, "player",
         fmt::format("step {}: the rules make an automated decision for {} here ({}), not for {}", result_.steps + 1,
                     who(player), machine_.where(ir_.code[static_cast<std::size_t>(state.pc)].span), who(logged_player)),
         {rule_note(state.pc, "the decision is made here")});
  }
  const std::int32_t logged_rule = rule_of(*event, body);
  if (logged_rule != -2 && logged_rule != rule) {
    stop(ReplayOutcome::kIllegal, *event, "rule",
         fmt::format("step {}: the automated decision here is in {}, not in {}", result_.steps + 1, rule_text(rule),
                     rule_text(logged_rule)),
         {rule_note(state.pc, "the decision is made here")});
  }
  const Value logged = choice_of(state, *event, field(*event, body, "choice", "what was chosen"), choice);
  if (!equal(logged, choice)) {
    stop(ReplayOutcome::kIllegal, *event, "choice",
         fmt::format("step {}: the policy of {} chooses {} for {}, not {}", result_.steps + 1, rule_text(rule),
                     notation(state, choice), who(player), notation(state, logged)),
         {rule_note(state.pc, "the choice is made here, by the policy for automated seats")});
  }
  record_step(event->line.number, player, choice, state.pc, true, state);
  reader_.advance();
}

void Replayer::check_move(State& state, const LogEvent& event) {
  LogValue body = event.value().at(event.type == EventType::kMove ? "move" : "policy");
  const Decision& decision = *state.decision;
  const std::int64_t step = result_.steps + 1;
  const PlayerId player = player_of(event, field(event, body, "player", "who moves"), "player");
  if (player != decision.player) {
    stop(ReplayOutcome::kIllegal, event, "player",
         fmt::format("step {}: it is not {}'s move: the rules wait for {}", step, who(player),
                     waiting_text(state)),
         {rule_note(decision.instr, "the choice is asked here"), legal_note(state)});
  }
  const std::int32_t rule = rule_of(event, body);
  if (rule != -2 && rule != decision.rule) {
    stop(ReplayOutcome::kIllegal, event, "rule",
         fmt::format("step {}: the rules ask {} to choose in {} here, not in {}", step,
                     who(player), rule_text(decision.rule), rule_text(rule)),
         {rule_note(decision.instr, "the choice is asked here"), legal_note(state)});
  }
  const Value choice = choice_of(state, event, field(event, body, "choice", "what was chosen"), decision.options.front());
  const auto it = std::find_if(decision.options.begin(), decision.options.end(),
                               [&](const Value& o) { return equal(o, choice); });
  if (it == decision.options.end()) {
    std::vector<grammar::DiagnosticNote> notes{rule_note(decision.instr, fmt::format("{} allows only these choices", rule_text(decision.rule)))};
    if (choice.kind == Kind::kCard) {
      notes.push_back(grammar::DiagnosticNote{{}, fmt::format("{} is in {}", machine_.card_name(state, static_cast<CardId>(choice.scalar)),
                                                              zone_text(state.card_zone[static_cast<std::size_t>(choice.scalar)]))});
    }
    notes.push_back(legal_note(state));
    stop(ReplayOutcome::kIllegal, event, "choice",
         fmt::format("step {}: {} may not choose {} in {}", step, who(player),
                     notation(state, choice), rule_text(decision.rule)),
         std::move(notes));
  }
  record_step(event.line.number, player, choice, decision.instr, false, state);
  reader_.advance();
  machine_.apply(state, static_cast<std::size_t>(it - decision.options.begin()), this);
}

void Replayer::finish_fault(const State& state) {
  const Fault& fault = *state.fault;
  const LogEvent* event = reader_.peek();
  const bool recorded = event != nullptr && event->type == EventType::kFault;
  std::string recorded_note;
  if (recorded) {
    LogValue body = event->value().at("fault");
    const bool same = body.is_object() && body.contains("message") && body.at("message").is(fault.message);
    recorded_note = same ? "the log records this fault" : fmt::format("the log records another fault: {}", body.dump());
  } else {
    recorded_note = "the log does not record this fault";
  }
  const LogEvent at = recorded ? *event : LogEvent{EventType::kFault, reader_.last_line(), {}};
  grammar::Diagnostic d;
  d.span = span(at.line);
  d.message = fmt::format("after step {} the rules stop with a rule fault in {}: {}", result_.steps, rule_text(fault.rule), fault.message);
  d.notes.push_back(grammar::DiagnosticNote{fault.span, "the fault is here"});
  d.notes.push_back(grammar::DiagnosticNote{{}, recorded_note});
  throw ReplayStop{ReplayOutcome::kFault, std::move(d)};
}

void Replayer::check_end(const State& state) {
  const LogEvent* event = reader_.peek();
  if (event != nullptr && event->type == EventType::kEnd) {
    LogValue end = event->value().at("end");
    if (!end.is_object()) bad_log(*event, "end", "\"end\" is an object: winners, scores, rounds, moves");
    if (end.contains("winners")) {
      LogValue winners = end.at("winners");
      if (!winners.is_array()) bad_log(*event, "winners", "\"winners\" is a list of players");
      std::vector<PlayerId> logged;
      winners.each([&](LogValue w) { logged.push_back(player_of(*event, w, "winners")); });
      std::vector<PlayerId> actual = state.winners;
      std::sort(logged.begin(), logged.end());
      std::sort(actual.begin(), actual.end());
      if (logged != actual) {
        const auto names = [&](const std::vector<PlayerId>& ps) {
          std::vector<std::string> out;
          for (const PlayerId p : ps) out.push_back(who(p));
          return out.empty() ? std::string("nobody") : fmt::format("{}", fmt::join(out, ", "));
        };
        stop(ReplayOutcome::kIllegal, *event, "winners",
             fmt::format("the log says {} won; by the rules the winners are {}", names(logged), names(actual)), {});
      }
    }
    if (end.contains("scores")) {
      LogValue scores = end.at("scores");
      if (!scores.is_object()) bad_log(*event, "scores", "\"scores\" is an object: score name to one number per seat");
      const auto values = machine_.scores(state);
      scores.each_member([&](std::string_view name, LogValue logged) {
        const auto it = std::find_if(ir_.scores.begin(), ir_.scores.end(), [&](const ScoreInfo& s) { return s.name == name; });
        if (it == ir_.scores.end()) bad_log(*event, "scores", fmt::format("no score '{}' in these rules", name));
        const auto& actual = values[static_cast<std::size_t>(it - ir_.scores.begin())];
        bool same = logged.is_array() && logged.size() == actual.size();
        std::size_t p = 0;
        if (same) logged.each([&](LogValue v) { same = same && v.is(actual[p++]); });
        if (!same) {
          stop(ReplayOutcome::kIllegal, *event, "scores",
               fmt::format("the log gives {} as {}; by the rules it is [{}]", name, logged.dump(), fmt::join(actual, ",")), {});
        }
      });
    }
    for (const char* key : {"rounds", "moves"}) {
      if (!end.contains(key)) continue;
      const std::int64_t actual = std::string_view(key) == "rounds" ? state.rounds : state.moves;
      if (!end.at(key).is(actual)) {
        stop(ReplayOutcome::kIllegal, *event, key,
             fmt::format("the log says the game ended after {} {}; by the rules it ends after {}", end.at(key).dump(), key, actual), {});
      }
    }
    reader_.advance();
  }
  result_.ended = true;
}

void Replayer::run() {
  GameConfig config = read_header();
  State state;
  try {
    state = machine_.start(config, this);
  } catch (const ConfigError& e) {
    bad_log(LogEvent{EventType::kHeader, header_line_, {}}, "options", e.what());
  } catch (const LogEnded& ended) {
    result_.final_state = ended.state;
    result_.waiting = ended.waiting;
    if (options_.partial) return;
    bad_log(LogEvent{EventType::kHeader, reader_.last_line(), {}}, "",
            fmt::format("the log ends before the game does: the rules need {}; a log of a game in progress needs --partial", ended.waiting));
  }
  try {
    while (!state.finished) {
      const LogEvent* event = reader_.peek();
      if (event == nullptr) {
        result_.final_state = state;
        result_.waiting = waiting_text(state);
        result_.waiting_player = who(state.decision->player);
        result_.waiting_rule = state.decision->rule >= 0 ? ir_.labels[static_cast<std::size_t>(state.decision->rule)] : "";
        for (const Value& v : state.decision->options) result_.waiting_legal.push_back(notation(state, v));
        if (options_.partial) return;
        bad_log(LogEvent{EventType::kHeader, reader_.last_line(), {}}, "",
                fmt::format("the log ends before the game does: the rules wait for {}; a log of a game in progress needs --partial",
                            waiting_text(state)));
      }
      switch (event->type) {
        case EventType::kMove:
        case EventType::kPolicy: check_move(state, *event); break;
        case EventType::kStopped: {
          LogValue body = event->value().at("stopped");
          result_.stopped = body.is_object() && body.contains("reason") && body.at("reason").is_string()
                                ? body.at("reason").text()
                                : std::string("stopped");
          const std::uint32_t stopped_line = event->line.number;  // `event` is gone after advance()
          reader_.advance();
          result_.final_state = state;
          if (const LogEvent* after = reader_.peek()) {
            bad_log(*after, "", fmt::format("a {} line after the log says the game was stopped (line {})", event_name(after->type),
                                            stopped_line));
          }
          return;
        }
        case EventType::kEnd:
        case EventType::kFault:
          stop(ReplayOutcome::kIllegal, *event, "",
               fmt::format("the log says the game {} here, but the rules wait for {}",
                           event->type == EventType::kEnd ? "ended" : "stopped with a rule fault", waiting_text(state)),
               {rule_note(state.decision->instr, "the choice is asked here"), legal_note(state)});
        case EventType::kDeal:
          bad_log(*event, "", fmt::format("this deal matches no deal the rules make before this point: they wait for {}",
                                          waiting_text(state)));
        case EventType::kShuffle:
          bad_log(*event, "", fmt::format("the rules do not shuffle here: they wait for {}", waiting_text(state)));
        default:
          bad_log(*event, "", fmt::format("no round starts here: the rules wait for {}", waiting_text(state)));
      }
    }
  } catch (const LogEnded& ended) {
    result_.final_state = ended.state;
    result_.waiting = ended.waiting;
    if (options_.partial) return;
    bad_log(LogEvent{EventType::kHeader, reader_.last_line(), {}}, "",
            fmt::format("the log ends before the game does: the rules need {}; a log of a game in progress needs --partial", ended.waiting));
  } catch (const ReplayStop&) {
    result_.final_state = state;
    throw;
  } catch (const LogError&) {
    result_.final_state = state;
    throw;
  }
  result_.final_state = state;
  if (state.fault) finish_fault(state);
  check_end(state);
  if (const LogEvent* after = reader_.peek()) {
    bad_log(*after, "", fmt::format("a {} line after the game ended (after step {}, in round {})", event_name(after->type),
                                    result_.steps, state.rounds));
  }
}

}  // namespace

ReplayResult replay(const Machine& machine, const grammar::SourceManager& sources, grammar::FileId log_file,
                    const ReplayOptions& options) {
  ReplayResult result;
  Replayer replayer(machine, sources, log_file, options, result);
  try {
    replayer.run();
  } catch (ReplayStop& stop) {
    result.outcome = stop.outcome;
    result.diagnostics.add(std::move(stop.diagnostic));
  } catch (const LogError& e) {
    // A line the reader could not take: not JSON, not an object, not a known kind of line.
    grammar::Diagnostic d;
    d.span = log_span(sources.file(log_file).text, log_file, e.line, e.key, e.column);
    d.message = e.what();
    result.outcome = ReplayOutcome::kBadLog;
    result.diagnostics.add(std::move(d));
  }
  return result;
}

}  // namespace rulebook::interpreter
