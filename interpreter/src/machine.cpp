// The machine's public face: starting games, legal moves, applying them, views, notation.
#include "rulebook/interpreter/machine.hpp"

#include <algorithm>
#include <charconv>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "executor.hpp"
#include "rulebook/grammar/printable.hpp"
#include "rulebook/grammar/program.hpp"  // kMaxCardsOfAKind, the checker's limit
#include "inline_defs.hpp"

namespace rulebook::interpreter {

namespace {

using namespace detail;  // the executor, faults, enum ordinals

std::string rank_text(std::int64_t rank) {
  switch (rank) {
    case 11: return "J";
    case 12: return "Q";
    case 13: return "K";
    case 14: return "A";
    default: return std::to_string(rank);
  }
}

Value parse_option(const OptionInfo& option, const std::string& text, const Ir& ir) {
  const TypeInfo& type = ir.types[option.type];
  switch (type.kind) {
    case TypeKind::kInt: {
      std::int64_t v = 0;
      const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
      if (r.ec != std::errc() || r.ptr != text.data() + text.size()) {
        throw ConfigError(fmt::format("option '{}' takes an int, not '{}'", option.name, grammar::printable(text)));
      }
      if (option.has_range && (v < option.min || v > option.max)) {
        throw ConfigError(fmt::format("option '{}' must be in {}..{}, not {}", option.name, option.min, option.max, v));
      }
      return Value::integer(v);
    }
    case TypeKind::kBool:
      if (text == "true") return Value::boolean(true);
      if (text == "false") return Value::boolean(false);
      throw ConfigError(fmt::format("option '{}' takes true or false, not '{}'", option.name, grammar::printable(text)));
    case TypeKind::kEnum: {
      const auto e = static_cast<std::size_t>(type.enum_id);
      if (e < ir.enums.size()) {
        const auto& values = ir.enums[e].values;
        const auto it = std::find(values.begin(), values.end(), text);
        if (it != values.end()) return Value::enumeration(static_cast<std::int32_t>(e), it - values.begin());
        throw ConfigError(fmt::format("option '{}' takes one of {}, not '{}'", option.name,
                                      fmt::join(values, ", "), grammar::printable(text)));
      }
      break;
    }
    default: break;
  }
  throw ConfigError(fmt::format("option '{}' cannot be set", option.name));
}

}  // namespace

Machine::Machine(std::shared_ptr<const Ir> ir) : ir_(std::move(ir)), exec_(std::make_shared<const Ir>(inline_defs(*ir_))) {}

State Machine::start(const GameConfig& config, EventSink* sink) const {
  const Ir& ir = *ir_;
  State s;
  s.num_players = static_cast<std::int32_t>(config.players == 0 ? ir.players_default : config.players);
  if (s.num_players < ir.players_min || s.num_players > ir.players_max) {
    throw ConfigError(fmt::format("'{}' is for {} to {} players, not {}", ir.title, ir.players_min,
                                  ir.players_max, s.num_players));
  }
  s.rng.reseed(config.seed);
  s.locals.resize(static_cast<std::size_t>(ir.local_slots));
  s.vars.resize(static_cast<std::size_t>(ir.var_slots));
  s.options.reserve(ir.options.size());
  for (const OptionInfo& o : ir.options) s.options.push_back(o.default_value);
  // The options by name, once a game: a search per given option was quadratic (32,000
  // options given with --option took 1.5 s a game).
  std::unordered_map<std::string_view, std::size_t> option_index;
  if (!config.options.empty()) {
    for (std::size_t i = 0; i < ir.options.size(); ++i) option_index.try_emplace(ir.options[i].name, i);
  }
  for (const auto& [name, text] : config.options) {
    const auto it = option_index.find(name);
    if (it == option_index.end()) {
      // The first names only: a ruleset of thousands of options would print them all.
      constexpr std::size_t kListed = 20;
      std::vector<std::string> known;
      for (std::size_t i = 0; i < ir.options.size() && i < kListed; ++i) known.push_back(ir.options[i].name);
      std::string list = known.empty() ? "none" : fmt::format("{}", fmt::join(known, ", "));
      if (ir.options.size() > kListed) list += fmt::format(", and {} more", ir.options.size() - kListed);
      throw ConfigError(fmt::format("'{}' has no option '{}' (options: {})", ir.title, grammar::printable_short(name), list));
    }
    s.options[it->second] = parse_option(ir.options[it->second], text, ir);
  }
  s.num_seats = static_cast<std::int32_t>(ir.fixed_seats ? ir.seats : s.num_players);
  const auto seats = static_cast<std::size_t>(s.num_seats);
  s.seat_of.resize(seats);
  s.player_at.resize(seats);
  for (std::size_t p = 0; p < seats; ++p) {
    s.seat_of[p] = static_cast<std::int32_t>(p);
    s.player_at[p] = static_cast<PlayerId>(p);
    s.vars[static_cast<std::size_t>(ir.vars[0].first_slot) + p] = Value::boolean(static_cast<std::int64_t>(p) >= s.num_players);
  }
  s.reached.assign(ir.labels.size(), 0);
  s.fired.assign(ir.labels.size(), 0);
  s.acting.assign(ir.labels.size(), 0);
  s.zones.resize(static_cast<std::size_t>(ir.zone_instances));

  Executor exec(*exec_, s, sink);
  // The cards of this game.
  auto cards = std::make_shared<std::vector<CardInfo>>();
  try {
    if (ir.standard52) {
      static constexpr const char* kSuitLetters = "CDHS";
      for (std::int64_t suit = kSuitClubs; suit <= kSuitSpades; ++suit) {
        for (std::int64_t rank = 2; rank <= 14; ++rank) {
          const std::int64_t color = suit == kSuitDiamonds || suit == kSuitHearts ? kColorRed : kColorBlack;
          cards->push_back(CardInfo{rank_text(rank) + kSuitLetters[suit], rank, suit, color, 0});
        }
      }
    }
    for (std::int64_t j = 1; j <= ir.jokers; ++j) cards->push_back(CardInfo{fmt::format("JK{}", j), 0, -1, -1, 1});
    s.cards = cards;  // kind counts below may read options, not cards
    for (std::size_t k = 0; k < ir.card_kinds.size(); ++k) {
      const Value count = exec.eval(ir.card_kinds[k].second);
      if (count.scalar < 0 || count.scalar > grammar::kMaxCardsOfAKind) {
        throw ConfigError(fmt::format("{} '{}' cards is out of range (0 to {})", count.scalar, ir.card_kinds[k].first,
                                      grammar::kMaxCardsOfAKind));
      }
      if (static_cast<std::int64_t>(cards->size()) + count.scalar > grammar::kMaxCardsInAGame) {
        throw ConfigError(fmt::format("with {} '{}' cards the game would have {} cards, more than the {} a game may have",
                                      count.scalar, ir.card_kinds[k].first,
                                      static_cast<std::int64_t>(cards->size()) + count.scalar, grammar::kMaxCardsInAGame));
      }
      for (std::int64_t i = 1; i <= count.scalar; ++i) {
        cards->push_back(CardInfo{fmt::format("{}{}", ir.card_kinds[k].first, i), 0, -1, -1,
                                  static_cast<std::int64_t>(2 + k)});
      }
    }
  } catch (const FaultSignal& f) {
    throw ConfigError(f.message);
  }
  {
    // Logs name cards: two cards of one name would make a log that no replay can read. The
    // checker refuses kind names that can collide (E0201); this keeps the promise for any IR.
    std::unordered_set<std::string_view> names;
    for (const CardInfo& card : *cards) {
      if (!names.insert(card.name).second) {
        throw ConfigError(fmt::format("two cards are named '{}': rename a card kind", card.name));
      }
    }
  }
  s.card_zone.assign(cards->size(), 0);
  s.card_face_up.assign(cards->size(), 0);
  for (std::size_t c = 0; c < cards->size(); ++c) s.zones[0].push_back(static_cast<CardId>(c));
  try {
    exec.init_vars(false);
  } catch (const FaultSignal& f) {
    // A fault in an initial value ends the game before setup: sinks hear of the end as of any
    // other (a log writer writes its header and the fault, so the log replays to it).
    s.fault = Fault{f.message, f.kind, -1, f.span};
    s.finished = true;
    if (sink != nullptr) sink->ended(s);
    return s;
  }
  exec.run();
  return s;
}

bool ScriptedShuffles::shuffle_result(const State& state, std::int32_t /*zone_instance*/, std::vector<CardId>& cards) {
  if (next_ >= orders_.size()) return false;
  cards.clear();
  for (const std::string& name : orders_[next_++]) {
    const auto it = std::find_if(state.cards->begin(), state.cards->end(), [&](const CardInfo& c) { return c.name == name; });
    cards.push_back(it == state.cards->end() ? -1 : static_cast<CardId>(it - state.cards->begin()));
  }
  return true;  // the executor checks that this is an order of the zone's cards
}

const std::vector<Value>& Machine::legal_moves(const State& state) const {
  static const std::vector<Value> kNone;
  return state.decision ? state.decision->options : kNone;
}

SinkVerdict Machine::apply(State& state, std::size_t index, EventSink* sink) const {
  if (!state.decision) throw std::logic_error("apply: the game is not waiting for a move");
  if (index >= state.decision->options.size()) throw std::out_of_range("apply: no such move");
  const Instr& in = ir_->code[static_cast<std::size_t>(state.decision->instr)];
  Value chosen = state.decision->options[index];
  const PlayerId player = state.decision->player;
  if (state.decision->mixed >= 0) {
    // The alternative's index for the dispatch after kChooseMixed, its element at its slot.
    const std::int32_t alt = state.decision->alternatives[index];
    state.locals[static_cast<std::size_t>(in.a)] = Value::integer(alt);
    const AlternativeInfo& info =
        ir_->mixed_choices[static_cast<std::size_t>(state.decision->mixed)].alternatives[static_cast<std::size_t>(alt)];
    if (info.slot >= 0) state.locals[static_cast<std::size_t>(info.slot)] = chosen;
    state.last_alternative = LastAlternative{state.decision->mixed, alt};
  } else {
    state.locals[static_cast<std::size_t>(in.a)] = chosen;
    state.last_alternative = LastAlternative{};
  }
  state.decision.reset();
  ++state.moves;
  ++state.pc;
  if (sink != nullptr) {
    sink->chose(state, player, in.rule, chosen, false);
    if (sink->verdict() != SinkVerdict::kContinue) return sink->verdict();
  }
  Executor(*exec_, state, sink).run();
  return sink == nullptr ? SinkVerdict::kContinue : sink->verdict();
}

SinkVerdict Machine::refresh(State& state, EventSink* sink) const {
  if (!state.decision) return SinkVerdict::kContinue;
  state.decision.reset();  // pc still points at the choice
  Executor(*exec_, state, sink).run();
  return sink == nullptr ? SinkVerdict::kContinue : sink->verdict();
}

std::optional<Value> Machine::evaluate(const State& state, ExprId expr) const {
  State scratch = state;  // evaluation writes local slots
  Executor exec(*exec_, scratch, nullptr);
  try {
    return exec.eval(expr);
  } catch (const detail::FaultSignal&) {
    return std::nullopt;
  }
}

std::string score_text(const ScoreValue& score) {
  return score.faulted() ? "fault: " + score.fault : std::to_string(score.value);
}

std::vector<std::vector<ScoreValue>> Machine::scores(const State& state) const {
  State scratch = state;  // scores evaluate definitions, which write local slots
  Executor exec(*exec_, scratch, nullptr);
  std::vector<std::vector<ScoreValue>> out;
  for (const ScoreInfo& score : ir_->scores) {
    std::vector<ScoreValue> row;
    for (std::int64_t p = 0; p < state.num_seats; ++p) {
      scratch.locals[static_cast<std::size_t>(score.param)] = Value::player(p);
      try {
        row.push_back(ScoreValue{exec.eval(ir_->defs[static_cast<std::size_t>(score.value)].body).scalar, {}});
      } catch (const FaultSignal& f) {
        row.push_back(ScoreValue{0, fmt::format("{} ({})", f.message, where(f.span))});
      }
    }
    out.push_back(std::move(row));
  }
  return out;
}

std::string Machine::card_name(const State& state, CardId card) const {
  if (card < 0 || static_cast<std::size_t>(card) >= state.cards->size()) return "none";
  return (*state.cards)[static_cast<std::size_t>(card)].name;
}

const std::string& Machine::zone_name(std::int32_t instance) const {
  static const std::string kUnknown = "?";
  if (instance < 0 || static_cast<std::size_t>(instance) >= ir_->instance_names.size()) return kUnknown;
  return ir_->instance_names[static_cast<std::size_t>(instance)];
}

CardId Machine::card_by_name(const State& state, const std::string& name) const {
  for (std::size_t c = 0; c < state.cards->size(); ++c) {
    if ((*state.cards)[c].name == name) return static_cast<CardId>(c);
  }
  return -1;
}

std::string Machine::move_text(const State& state, std::size_t index) const {
  if (!state.decision || index >= state.decision->options.size()) throw std::out_of_range("move_text: no such move");
  const Decision& d = *state.decision;
  return move_text(state, d.mixed, d.mixed >= 0 ? d.alternatives[index] : -1, d.options[index]);
}

std::string Machine::move_text(const State& state, std::int32_t mixed, std::int32_t alternative, const Value& choice) const {
  if (mixed < 0) return value_text(state, choice);
  const AlternativeInfo& info =
      ir_->mixed_choices[static_cast<std::size_t>(mixed)].alternatives[static_cast<std::size_t>(alternative)];
  if (info.slot < 0) return info.name;
  return info.name + " " + value_text(state, choice);
}

std::string Machine::value_text(const State& state, const Value& v) const {
  switch (v.kind) {
    case Kind::kNone: return "none";
    case Kind::kInt: return std::to_string(v.scalar);
    case Kind::kBool: return v.scalar != 0 ? "true" : "false";
    case Kind::kPlayer: return v.scalar < 0 ? "none" : fmt::format("player {}", v.scalar);
    case Kind::kCard: return card_name(state, static_cast<CardId>(v.scalar));
    case Kind::kEnum:
      if (v.scalar < 0 || v.enum_id < 0) return "none";
      return ir_->enums[static_cast<std::size_t>(v.enum_id)].values[static_cast<std::size_t>(v.scalar)];
    case Kind::kZone: return zone_name(static_cast<std::int32_t>(v.scalar));
    case Kind::kPlayerSet:
    case Kind::kSet: {
      std::vector<std::string> parts;
      for (const std::int64_t x : v.items) {
        Value e;
        if (v.element == Kind::kPlayerSet) {
          e = players_of_mask(x);
        } else {
          e.kind = v.element;
          e.enum_id = v.enum_id;
          e.scalar = x;
        }
        parts.push_back(value_text(state, e));
      }
      return fmt::format("{{{}}}", fmt::join(parts, ", "));
    }
  }
  return "?";
}

std::string Machine::where(const grammar::SourceSpan& span) const {
  if (!span.valid() || span.file >= ir_->file_paths.size()) return "?";
  // A path is any bytes: written out as printable() text, as everything from input that is printed.
  return fmt::format("{}:{}", grammar::printable(ir_->file_paths[span.file]), span.line);
}

std::string Machine::summary(const State& state) const {
  std::string out = fmt::format("round {}, {} moves; seats:", state.rounds, state.moves);
  for (std::size_t seat = 0; seat < state.player_at.size(); ++seat) {
    out += fmt::format(" {}=player {}", seat, state.player_at[seat]);
  }
  out += "\nzones:";
  for (std::int32_t z = 0; z < ir_->zone_instances; ++z) {
    const auto& cards = state.zones[static_cast<std::size_t>(z)];
    if (cards.empty()) continue;
    std::vector<std::string> names;
    for (const CardId c : cards) names.push_back(card_name(state, c) + (state.card_face_up[static_cast<std::size_t>(c)] != 0 ? "" : "*"));
    out += fmt::format("\n  {} [{}]: {}", zone_name(z), cards.size(), fmt::join(names, " "));
  }
  out += "\nvariables:";
  for (const VarInfo& v : ir_->vars) {
    if (v.per_player) {
      std::vector<std::string> values;
      for (std::int64_t p = 0; p < state.num_seats; ++p) values.push_back(value_text(state, state.vars[static_cast<std::size_t>(v.first_slot + p)]));
      out += fmt::format("\n  {}: {}", v.name, fmt::join(values, ", "));
    } else {
      out += fmt::format("\n  {}: {}", v.name, value_text(state, state.vars[static_cast<std::size_t>(v.first_slot)]));
    }
  }
  out += "\n(* face down; cards listed bottom to top)";
  return out;
}

View Machine::view(const State& state, PlayerId viewer, ViewDetail detail) const {
  View v;
  v.viewer = viewer;
  v.rounds = state.rounds;
  v.finished = state.finished;
  if (state.decision) {
    v.to_move = state.decision->player;
    v.rule = state.decision->rule;
    if (state.decision->player == viewer) {
      v.legal = state.decision->options;
      v.mixed = state.decision->mixed;
      v.legal_alternatives = state.decision->alternatives;
    }
  }
  if (detail == ViewDetail::kDecisionOnly) return v;
  v.seat_of = state.seat_of;
  for (const ZoneInfo& z : ir_->zones) {
    const std::int32_t width = z.per_player ? state.num_seats : 1;
    for (std::int32_t i = 0; i < width; ++i) {
      const std::int32_t instance = z.first_instance + i;
      ZoneView zv;
      zv.instance = instance;
      zv.name = zone_name(instance);
      const bool zone_visible = z.visibility == ir::Visibility::kPublic ||
                                (z.visibility == ir::Visibility::kOwner && z.per_player && i == viewer);
      for (const CardId c : state.zones[static_cast<std::size_t>(instance)]) {
        const bool up = state.card_face_up[static_cast<std::size_t>(c)] != 0;
        zv.cards.push_back(up || zone_visible ? std::optional<CardId>(c) : std::nullopt);
        zv.face_up.push_back(up);
      }
      v.zones.push_back(std::move(zv));
    }
  }
  for (const VarInfo& var : ir_->vars) {
    if (var.per_player) {
      for (std::int64_t p = 0; p < state.num_seats; ++p) {
        v.vars.emplace_back(fmt::format("{}({})", var.name, p), state.vars[static_cast<std::size_t>(var.first_slot + p)]);
      }
    } else {
      v.vars.emplace_back(var.name, state.vars[static_cast<std::size_t>(var.first_slot)]);
    }
  }
  return v;
}

}  // namespace rulebook::interpreter
