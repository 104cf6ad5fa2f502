#include "rulebook/interpreter/log.hpp"

#include <nlohmann/json.hpp>

namespace rulebook::interpreter {

namespace {

nlohmann::json choice_to_json(const Machine& machine, const State& state, const Value& v) {
  switch (v.kind) {
    case Kind::kInt: return v.scalar;
    case Kind::kBool: return v.scalar != 0;
    case Kind::kPlayer: return v.scalar;
    case Kind::kCard: return machine.card_name(state, static_cast<CardId>(v.scalar));
    case Kind::kEnum: return machine.value_text(state, v);
    case Kind::kSet: {
      nlohmann::json items = nlohmann::json::array();
      for (const std::int64_t x : v.items) {
        Value e;
        e.kind = v.element;
        e.enum_id = v.enum_id;
        e.scalar = x;
        if (v.element == Kind::kPlayerSet) {
          nlohmann::json inner = nlohmann::json::array();
          for (std::int64_t p = 0; p < 64; ++p) {
            if ((static_cast<std::uint64_t>(x) >> p) & 1U) inner.push_back(p);
          }
          items.push_back(inner);
        } else {
          items.push_back(choice_to_json(machine, state, e));
        }
      }
      return items;
    }
    default: return nullptr;
  }
}

nlohmann::json card_names(const Machine& machine, const State& state, const std::vector<CardId>& cards) {
  nlohmann::json names = nlohmann::json::array();
  for (const CardId c : cards) names.push_back(machine.card_name(state, c));
  return names;
}

}  // namespace

std::string choice_json(const Machine& machine, const State& state, const Value& choice) {
  return choice_to_json(machine, state, choice).dump();
}

void LogWriter::header(const State& initial) {
  const Machine& machine = machine_;
  const Ir& ir = machine.ir();
  nlohmann::json header;
  header["log"] = "rulebook";
  header["version"] = kLogVersion;
  header["ruleset"] = ir.title;
  header["files"] = ir.file_paths;
  header["hash"] = ir.source_hash;
  header["players"] = initial.num_players;
  header["seats"] = initial.num_seats;
  nlohmann::json automated = nlohmann::json::array();
  for (std::int64_t p = 0; p < initial.num_seats; ++p) automated.push_back(p >= initial.num_players);
  header["automated"] = automated;
  nlohmann::json options = nlohmann::json::object();
  for (std::size_t i = 0; i < ir.options.size(); ++i) {
    options[ir.options[i].name] = choice_to_json(machine, initial, initial.options[i]);
  }
  header["options"] = options;
  header["seed"] = std::to_string(config_.seed);
  text_ += header.dump();
  text_ += '\n';
}

void LogWriter::line(const State& state, const std::string& json) {
  if (text_.empty()) header(state);
  text_ += json;
  text_ += '\n';
}

void LogWriter::shuffled(const State& state, std::int32_t zone_instance) {
  nlohmann::json j;
  j["shuffle"] = machine_.zone_name(zone_instance);
  j["cards"] = card_names(machine_, state, state.zones[static_cast<std::size_t>(zone_instance)]);
  line(state, j.dump());
}

void LogWriter::dealt(const State& state, std::int32_t from, std::int32_t to, const std::vector<CardId>& cards) {
  nlohmann::json j;
  j["deal"] = {{"from", machine_.zone_name(from)}, {"to", machine_.zone_name(to)},
               {"cards", card_names(machine_, state, cards)}};
  line(state, j.dump());
}

void LogWriter::chose(const State& state, PlayerId player, std::int32_t rule, const Value& choice, bool by_policy) {
  nlohmann::json move;
  move["player"] = player;
  move["rule"] = rule >= 0 ? nlohmann::json(machine_.ir().labels[static_cast<std::size_t>(rule)]) : nlohmann::json(nullptr);
  move["choice"] = choice_to_json(machine_, state, choice);
  nlohmann::json j;
  j[by_policy ? "policy" : "move"] = move;
  line(state, j.dump());
}

void LogWriter::round_started(const State& state) {
  nlohmann::json j;
  j["round"] = state.rounds;
  line(state, j.dump());
}

void LogWriter::ended(const State& state) {
  nlohmann::json j;
  if (state.fault) {
    const Fault& f = *state.fault;
    j["fault"] = {{"message", f.message},
                  {"rule", f.rule >= 0 ? nlohmann::json(machine_.ir().labels[static_cast<std::size_t>(f.rule)]) : nlohmann::json(nullptr)},
                  {"at", machine_.where(f.span)},
                  {"rounds", state.rounds},
                  {"moves", state.moves}};
  } else {
    nlohmann::json scores = nlohmann::json::object();
    const auto values = machine_.scores(state);
    for (std::size_t i = 0; i < values.size(); ++i) scores[machine_.ir().scores[i].name] = values[i];
    j["end"] = {{"winners", state.winners}, {"rounds", state.rounds}, {"moves", state.moves}, {"scores", scores}};
  }
  line(state, j.dump());
}

void LogWriter::stopped(const State& state, std::int64_t max_moves) {
  nlohmann::json j;
  j["stopped"] = {{"reason", "move cap"}, {"max_moves", max_moves}, {"rounds", state.rounds}, {"moves", state.moves}};
  line(state, j.dump());
}

}  // namespace rulebook::interpreter
