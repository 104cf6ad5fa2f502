#include "rulebook/logs/log.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace rulebook::interpreter {

namespace {

// Event lines are written as text directly: one per move, and building a JSON tree for each
// made `simulate --logs` three times slower than the games. The output is the same compact,
// key-sorted JSON nlohmann writes (the header and the end lines still go through it).
void append_string(std::string& out, std::string_view text) {
  out += '"';
  for (const char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

void append_choice(std::string& out, const Machine& machine, const State& state, const Value& v) {
  switch (v.kind) {
    case Kind::kInt:
    case Kind::kPlayer: out += std::to_string(v.scalar); return;
    case Kind::kBool: out += v.scalar != 0 ? "true" : "false"; return;
    case Kind::kCard: append_string(out, machine.card_name(state, static_cast<CardId>(v.scalar))); return;
    case Kind::kEnum: append_string(out, machine.value_text(state, v)); return;
    case Kind::kSet: {
      out += '[';
      bool first = true;
      for (const std::int64_t x : v.items) {
        if (!first) out += ',';
        first = false;
        if (v.element == Kind::kPlayerSet) {
          out += '[';
          bool first_player = true;
          for (std::int64_t p = 0; p < 64; ++p) {
            if (((static_cast<std::uint64_t>(x) >> p) & 1U) == 0) continue;
            if (!first_player) out += ',';
            first_player = false;
            out += std::to_string(p);
          }
          out += ']';
        } else {
          Value e;
          e.kind = v.element;
          e.enum_id = v.enum_id;
          e.scalar = x;
          append_choice(out, machine, state, e);
        }
      }
      out += ']';
      return;
    }
    default: out += "null"; return;
  }
}

void append_cards(std::string& out, const Machine& machine, const State& state, const std::vector<CardId>& cards) {
  out += '[';
  for (std::size_t i = 0; i < cards.size(); ++i) {
    if (i != 0) out += ',';
    append_string(out, machine.card_name(state, cards[i]));
  }
  out += ']';
}

// A rule file as a log names it: its name without its folder. A log is read elsewhere (sent
// on, kept with others): a folder would tell where the writer kept the rules, an absolute one
// the writer's home, and name a file that is not there; a path relative to the log's folder
// breaks as soon as either is moved. Replay takes the rules from its command line; the hash
// says whether they are the same texts.
std::string file_name(std::string_view path) {
  const std::size_t slash = path.find_last_of('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

}  // namespace

std::string fault_place(const Machine& machine, const Fault& fault) {
  const auto& paths = machine.ir().file_paths;
  if (!fault.span.valid() || fault.span.file >= paths.size()) return "?";
  return fmt::format("{}:{}", file_name(paths[fault.span.file]), fault.span.line);
}

std::string choice_json(const Machine& machine, const State& state, const Value& choice) {
  std::string out;
  append_choice(out, machine, state, choice);
  return out;
}

void LogWriter::header(const State& initial) {
  const Machine& machine = machine_;
  const Ir& ir = machine.ir();
  nlohmann::json header;
  header["log"] = "rulebook";
  header["version"] = kLogVersion;
  header["ruleset"] = ir.title;
  nlohmann::json files = nlohmann::json::array();
  for (const std::string& path : ir.file_paths) files.push_back(file_name(path));
  header["files"] = files;
  header["hash"] = ir.source_hash;
  header["players"] = initial.num_players;
  header["seats"] = initial.num_seats;
  nlohmann::json automated = nlohmann::json::array();
  for (std::int64_t p = 0; p < initial.num_seats; ++p) automated.push_back(p >= initial.num_players);
  header["automated"] = automated;
  nlohmann::json options = nlohmann::json::object();
  for (std::size_t i = 0; i < ir.options.size(); ++i) {
    options[ir.options[i].name] = nlohmann::json::parse(choice_json(machine, initial, initial.options[i]));
  }
  header["options"] = options;
  header["seed"] = std::to_string(config_.seed);
  text_ += header.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  text_ += '\n';
}

void LogWriter::begin_line(const State& state) {
  if (text_.empty()) header(state);
}

bool LogWriter::recording(const State& state) {
  if (cut_) {
    ++unrecorded_;
    return false;
  }
  begin_line(state);
  if (text_.size() - decision_end_ <= kMaxLogBytesWithoutDecision) return true;
  // Replay reads a cut line as the end of what it can check (replay.cpp); the rounds and
  // moves say where the game stood.
  nlohmann::json j;
  j["cut"] = {{"reason", fmt::format("more than {} bytes of log with no decision", kMaxLogBytesWithoutDecision)},
              {"rounds", state.rounds},
              {"moves", state.moves}};
  text_ += j.dump();
  text_ += '\n';
  cut_ = true;
  ++unrecorded_;
  return false;
}

void LogWriter::line(const State& state, const std::string& json) {
  begin_line(state);
  text_ += json;
  text_ += '\n';
}

void LogWriter::shuffled(const State& state, std::int32_t zone_instance) {
  if (!recording(state)) return;
  text_ += "{\"cards\":";
  append_cards(text_, machine_, state, state.zones[static_cast<std::size_t>(zone_instance)]);
  text_ += ",\"shuffle\":";
  append_string(text_, machine_.zone_name(zone_instance));
  text_ += "}\n";
}

void LogWriter::dealt(const State& state, std::int32_t from, std::int32_t to, const std::vector<CardId>& cards) {
  if (!recording(state)) return;
  text_ += "{\"deal\":{\"cards\":";
  append_cards(text_, machine_, state, cards);
  text_ += ",\"from\":";
  append_string(text_, machine_.zone_name(from));
  text_ += ",\"to\":";
  append_string(text_, machine_.zone_name(to));
  text_ += "}}\n";
}

void LogWriter::chose(const State& state, PlayerId player, std::int32_t rule, const Value& choice, bool by_policy) {
  if (!recording(state)) return;
  text_ += by_policy ? "{\"policy\":{" : "{\"move\":{";
  // A move of a decision with alternatives names its alternative (`draw`, or `play` and 7H).
  if (!by_policy && state.last_alternative.mixed >= 0) {
    text_ += "\"alternative\":";
    append_string(text_, machine_.ir()
                             .mixed_choices[static_cast<std::size_t>(state.last_alternative.mixed)]
                             .alternatives[static_cast<std::size_t>(state.last_alternative.alternative)]
                             .name);
    text_ += ',';
  }
  text_ += "\"choice\":";
  append_choice(text_, machine_, state, choice);
  text_ += ",\"player\":";
  text_ += std::to_string(player);
  text_ += ",\"rule\":";
  if (rule >= 0) {
    append_string(text_, machine_.ir().labels[static_cast<std::size_t>(rule)]);
  } else {
    text_ += "null";
  }
  text_ += "}}\n";
  if (!by_policy) decision_end_ = text_.size();
}

// A random choice's result, like a shuffle's: the log replays without the generator.
void LogWriter::drew(const State& state, std::int32_t rule, const std::vector<Value>& options, std::size_t index) {
  if (!recording(state)) return;
  text_ += "{\"draw\":{\"choice\":";
  append_choice(text_, machine_, state, options[index]);
  text_ += ",\"rule\":";
  if (rule >= 0) {
    append_string(text_, machine_.ir().labels[static_cast<std::size_t>(rule)]);
  } else {
    text_ += "null";
  }
  text_ += "}}\n";
}

void LogWriter::round_started(const State& state) {
  if (!recording(state)) return;
  text_ += "{\"round\":";
  text_ += std::to_string(state.rounds);
  text_ += "}\n";
}

void LogWriter::ended(const State& state) {
  nlohmann::json j;
  if (state.fault) {
    const Fault& f = *state.fault;
    j["fault"] = {{"message", f.message},
                  {"rule", f.rule >= 0 ? nlohmann::json(machine_.ir().labels[static_cast<std::size_t>(f.rule)]) : nlohmann::json(nullptr)},
                  {"at", fault_place(machine_, f)},
                  {"rounds", state.rounds},
                  {"moves", state.moves}};
    if (cut_) j["fault"]["unrecorded"] = unrecorded_;
  } else {
    nlohmann::json scores = nlohmann::json::object();
    const auto values = machine_.scores(state);
    for (std::size_t i = 0; i < values.size(); ++i) {
      // A score that faults in the final state is null (replay expects null there too).
      nlohmann::json row = nlohmann::json::array();
      for (const interpreter::ScoreValue& v : values[i]) row.push_back(v.faulted() ? nlohmann::json(nullptr) : nlohmann::json(v.value));
      scores[machine_.ir().scores[i].name] = row;
    }
    j["end"] = {{"winners", state.winners}, {"rounds", state.rounds}, {"moves", state.moves}, {"scores", scores}};
    // Exactly, as "3/2": only for rules that declare payoffs, so other logs are as before.
    if (!machine_.ir().payoffs.empty()) {
      nlohmann::json payoffs = nlohmann::json::object();
      for (std::size_t i = 0; i < state.payoffs.size() && i < machine_.ir().payoffs.size(); ++i) {
        std::vector<std::string> row;
        for (const interpreter::Rational& r : state.payoffs[i]) row.push_back(interpreter::to_string(r));
        payoffs[machine_.ir().payoffs[i].name] = row;
      }
      j["end"]["payoffs"] = payoffs;
    }
    if (cut_) j["end"]["unrecorded"] = unrecorded_;
  }
  line(state, j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

void LogWriter::stopped(const State& state, std::int64_t max_moves) {
  nlohmann::json j;
  j["stopped"] = {{"reason", "move cap"}, {"max_moves", max_moves}, {"rounds", state.rounds}, {"moves", state.moves}};
  if (cut_) j["stopped"]["unrecorded"] = unrecorded_;
  line(state, j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

}  // namespace rulebook::interpreter
