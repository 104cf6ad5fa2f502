#include "log_names.hpp"

#include <algorithm>
#include <type_traits>

#include <fmt/format.h>

#include "rulebook/grammar/suggest.hpp"

namespace rulebook::interpreter::detail {

namespace {

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

// The card a common spelling stands for, tried before the closest name by edit distance
// (which for "TC" would offer any club): case aside (`qh`, `Jk1`, `Note3`), `T` for ten
// (`TC`), the suit first (`HQ`), and the suit symbols (`Q♥`).
std::string card_spelling(std::string_view written, const NameMap<CardId>& cards) {
  static const std::pair<std::string_view, char> kSymbols[] = {
      {"\u2663", 'C'}, {"\u2667", 'C'}, {"\u2666", 'D'}, {"\u2662", 'D'},
      {"\u2665", 'H'}, {"\u2661", 'H'}, {"\u2660", 'S'}, {"\u2664", 'S'}};
  std::string upper, lower;
  for (std::size_t i = 0; i < written.size();) {
    bool symbol = false;
    for (const auto& [text, suit] : kSymbols) {
      if (written.substr(i).starts_with(text)) {
        upper += suit;
        lower += static_cast<char>(suit - 'A' + 'a');
        i += text.size();
        symbol = true;
        break;
      }
    }
    if (symbol) continue;
    const char c = written[i++];
    upper += c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
    lower += c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  }
  std::vector<std::string> tries{upper, lower};
  const auto is_suit = [](char c) { return c == 'C' || c == 'D' || c == 'H' || c == 'S'; };
  if (upper.size() >= 2 && is_suit(upper.front())) tries.push_back(upper.substr(1) + upper.front());  // HQ
  for (std::size_t n = tries.size(), i = 0; i < n; ++i) {
    std::string t = tries[i];
    if (t.size() == 2 && (t[0] == 'T' || t[0] == 't')) tries.push_back("10" + t.substr(1));  // TC
  }
  for (const std::string& t : tries) {
    if (t != written && cards.find(t) != cards.end()) return t;
  }
  return {};
}

}  // namespace

LogNames::LogNames(const Machine& machine, std::int32_t seats, std::vector<std::string> names)
    : machine_(&machine), seats_(seats), named_(!names.empty()), named_count_(names.size()) {
  const Ir& ir = machine.ir();
  names_ = std::move(names);
  for (std::int32_t p = 0; p < seats_; ++p) {
    // Seats the log leaves unnamed (all of them, or the automated ones) go by number.
    if (static_cast<std::size_t>(p) >= names_.size()) names_.push_back(std::to_string(p));
    player_by_name_.emplace(names_[static_cast<std::size_t>(p)], p);
    player_by_name_.emplace(std::to_string(p), p);
  }
  for (std::size_t l = 0; l < ir.labels.size(); ++l) label_by_name_.emplace(ir.labels[l], static_cast<std::int32_t>(l));
  for (std::int32_t z = 0; z < ir.zone_instances; ++z) {
    zone_by_name_[machine.zone_name(z)] = z;
    zone_by_name_[zone_text(z)] = z;
  }
  // Per-player zones of seats beyond this table do not exist in this game.
  for (const ZoneInfo& z : ir.zones) {
    if (!z.per_player) continue;
    for (std::int64_t p = seats_; p < ir.seats; ++p) zone_by_name_.erase(machine.zone_name(z.first_instance + static_cast<std::int32_t>(p)));
  }
}

PlayerId LogNames::player(const LogLine& line, LogValue j, std::string_view key) const {
  std::int64_t p = -1;
  if (j.is_integer()) {
    p = j.integer();
  } else if (j.is_string()) {
    const auto it = player_by_name_.find(j.string());
    if (it == player_by_name_.end()) {
      throw LogError(line, std::string(key), fmt::format("unknown seat '{}' (seats: {})", j.shown(), fmt::join(names_, ", ")));
    }
    p = it->second;
  } else {
    throw LogError(line, std::string(key), fmt::format("a player is a seat name or a number, not {}", j.shown()));
  }
  if (p < 0 || p >= seats_) {
    throw LogError(line, std::string(key), fmt::format("unknown seat {}: the table has seats 0 to {}", p, seats_ - 1));
  }
  return static_cast<PlayerId>(p);
}

std::int32_t LogNames::zone(const LogLine& line, LogValue j, std::string_view key) const {
  if (!j.is_string()) {
    throw LogError(line, std::string(key), fmt::format("a zone is a name such as \"deck\" or \"hand(1)\", not {}", j.shown()));
  }
  const auto it = zone_by_name_.find(j.string());
  if (it != zone_by_name_.end()) return it->second;
  const std::string name = j.text();
  const std::size_t open = name.find('(');
  if (open != std::string::npos && name.back() == ')') {
    const std::string base = name.substr(0, open);
    const auto& zones = machine_->ir().zones;
    if (std::any_of(zones.begin(), zones.end(), [&](const ZoneInfo& z) { return z.name == base && z.per_player; })) {
      throw LogError(line, std::string(key), fmt::format("zone '{}': unknown seat '{}' (seats: {})", shown(name),
                                                         shown(name.substr(open + 1, name.size() - open - 2)), fmt::join(names_, ", ")));
    }
  }
  throw LogError(line, std::string(key), fmt::format("no zone '{}' in these rules{}", shown(name), did_you_mean(name, zone_by_name_)));
}

std::int32_t LogNames::rule(const LogLine& line, LogValue j) const {
  if (!j.is_string()) throw LogError(line, "rule", fmt::format("a rule is given by its label, not {}", j.shown()));
  const auto it = label_by_name_.find(j.string());
  if (it == label_by_name_.end()) {
    throw LogError(line, "rule", fmt::format("no rule labelled '{}' in these rules{}", j.shown(),
                                             did_you_mean(j.string(), machine_->ir().labels)));
  }
  return it->second;
}

std::int64_t LogNames::enum_value(const LogLine& line, LogValue j, std::int32_t enum_id) const {
  const ir::EnumInfo& info = machine_->ir().enums[static_cast<std::size_t>(enum_id)];
  const auto it = std::find(info.values.begin(), info.values.end(), j.string());
  if (it == info.values.end()) {
    throw LogError(line, "choice", fmt::format("'{}' is not a value of {} ({})", j.shown(), info.name, fmt::join(info.values, ", ")));
  }
  return it - info.values.begin();
}

std::string LogNames::card_hint(const State& state, std::string_view written) {
  if (card_by_name_.empty()) {
    for (std::size_t c = 0; c < state.cards->size(); ++c) card_by_name_[(*state.cards)[c].name] = static_cast<CardId>(c);
  }
  const std::string spelt = card_spelling(written, card_by_name_);
  return spelt.empty() ? did_you_mean(written, card_by_name_) : fmt::format(" (did you mean '{}'?)", spelt);
}

std::int32_t LogNames::zone_named(std::string_view name) const {
  const auto it = zone_by_name_.find(name);
  return it == zone_by_name_.end() ? -1 : it->second;
}

CardId LogNames::card(const State& state, const LogLine& line, LogValue j, std::string_view key) {
  if (card_by_name_.empty()) {
    for (std::size_t c = 0; c < state.cards->size(); ++c) card_by_name_[(*state.cards)[c].name] = static_cast<CardId>(c);
  }
  if (!j.is_string()) throw LogError(line, std::string(key), fmt::format("a card is a name such as \"7H\", not {}", j.shown()));
  const auto it = card_by_name_.find(j.string());
  if (it == card_by_name_.end()) {
    throw LogError(line, std::string(key), fmt::format("no card '{}' in this game{} (cards are named like {})", j.shown(),
                                                       card_hint(state, j.string()), machine_->card_name(state, 0)));
  }
  return it->second;
}

std::vector<CardId> LogNames::cards(const State& state, const LogLine& line, LogValue j, std::string_view key) {
  if (!j.is_array()) throw LogError(line, std::string(key), fmt::format("\"{}\" is a list of cards, not {}", key, j.shown()));
  std::vector<CardId> cards;
  cards.reserve(j.size());
  j.each([&](LogValue item) {
    const CardId c = card(state, line, item, key);
    if (std::find(cards.begin(), cards.end(), c) != cards.end()) {
      throw LogError(line, std::string(key), fmt::format("card {} appears twice", machine_->card_name(state, c)));
    }
    cards.push_back(c);
  });
  return cards;
}

std::string LogNames::notation(const State& state, const Value& v) const {
  switch (v.kind) {
    case Kind::kPlayer:
      if (v.scalar < 0 || v.scalar >= static_cast<std::int64_t>(names_.size())) return "none";
      return names_[static_cast<std::size_t>(v.scalar)];
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
    default: return machine_->value_text(state, v);
  }
}

std::string LogNames::zone_text(std::int32_t instance) const {
  const std::string& name = machine_->zone_name(instance);
  const std::size_t open = name.find('(');
  if (!named_ || open == std::string::npos) return name;
  const std::size_t player = std::stoul(name.substr(open + 1, name.size() - open - 2));
  return fmt::format("{}({})", name.substr(0, open), player < names_.size() ? names_[player] : "?");
}

std::string LogNames::cards_text(const State& state, const std::vector<CardId>& cards) const {
  std::vector<std::string> names;
  for (const CardId c : cards) names.push_back(machine_->card_name(state, c));
  return names.empty() ? "no cards" : fmt::format("{}", fmt::join(names, " "));
}

std::string LogNames::who(PlayerId p) const {
  return static_cast<std::size_t>(p) < named_count_ ? names_[static_cast<std::size_t>(p)] : fmt::format("player {}", p);
}

}  // namespace rulebook::interpreter::detail
