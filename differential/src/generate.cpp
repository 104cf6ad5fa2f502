// The rule-file generator's declarations and statements (generator.hpp has the frame and
// its state; generate_expr.cpp the expressions): every statement of the language, every zone
// kind and visibility, options, enums, definitions, per-round and per-player values, scores,
// payoffs, policies, invariants and `terminates` claims, one to five players.
#include "rulebook/differential/generate.hpp"

#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "generator.hpp"
#include "rulebook/grammar/check.hpp"
#include "rulebook/grammar/parse.hpp"

namespace rulebook::differential {

namespace detail {

std::string Generator::file() {
  // One to three players mostly; four or five in one file of five (their games are larger).
  players_ = chance(5) && limits_.max_players > 3 ? 4 + below(limits_.max_players - 3) : 1 + below(std::min(3, limits_.max_players));
  seats_ = players_ + (chance(4) ? 1 : 0);
  declare_cards();
  declare_zones();
  std::string out = fmt::format("game \"generated\"\nplayers {}\n", players_);
  if (seats_ > players_) out += fmt::format("seats {}\n", seats_);
  out += cards_text_;
  for (const Zone& z : zones_) {
    out += fmt::format("zone {}{}: {} {}\n", z.name, z.per_player ? "(p)" : "", z.pile ? "pile" : "set",
                       z.name == "deck" ? "hidden" : z.per_player && !z.pile ? "owner" : pick({"public", "hidden", "public"}));
  }
  out += declarations();
  out += setup();
  out += round();
  if (seats_ > players_ && !policy_rules_.empty() && chance(2)) {
    out += "policy bot {\n";
    const Local& rule = policy_rules_[static_cast<std::size_t>(below(static_cast<std::int32_t>(policy_rules_.size())))];
    out += fmt::format("  {}: {}\n", rule.name, rule.type == Type::kInt ? pick({"first v in legal", "1", "max v in legal by v"})
                                                                          : "first v in legal");
    out += "}\n";
  }
  return out;
}

void Generator::declare_cards() {
  std::int32_t left = 2 + below(limits_.max_cards - 1);
  cards_text_ = "cards {";
  const bool joker = chance(4);
  if (joker) {
    cards_text_ += " jokers 1";
    --left;
  }
  const std::int32_t first = std::max(1, left - (chance(2) ? below(left) : 0));
  cards_text_ += fmt::format(" ka: {}", first);
  kinds_.push_back("ka");
  if (left - first > 0) {
    cards_text_ += fmt::format(" kb: {}", left - first);
    kinds_.push_back("kb");
  }
  cards_text_ += " }\n";
}

void Generator::declare_zones() {
  zones_.push_back({"deck", false, true});
  zones_.push_back({"pot", false, true});
  if (chance(2)) zones_.push_back({"bag", false, false});
  if (chance(2)) zones_.push_back({"hand", true, false});
  if (chance(3)) zones_.push_back({"tab", true, true});
}

std::string Generator::declarations() {
  std::string out;
  has_option_ = chance(3);
  if (has_option_) out += fmt::format("option o: int = {} in 0..2\n", below(3));
  has_bool_option_ = chance(5);
  if (has_bool_option_) out += fmt::format("option ob: bool = {} \"a rule of the generated game\"\n", pick({"true", "false"}));
  has_enum_ = chance(4);
  if (has_enum_) out += fmt::format("enum mood {{ calm, angry }}\nvar m: mood = {}\n", pick({"calm", "none"}));
  has_def_ = chance(4);
  if (has_def_) out += fmt::format("def big(x: int): bool = x > {}\n", below(3));
  out += "var t: int = 0\n";
  // Initial values are read at the start and, per round, at every round start.
  out += fmt::format("var n: int = {}{}\n", chance(3) ? int_expr(1) : std::to_string(below(3)), chance(3) ? " per round" : "");
  out += fmt::format("var f: bool = {}{}\n", chance(3) ? bool_expr(1) : pick({"true", "false"}), chance(3) ? " per round" : "");
  out += fmt::format("var pts(p): int = {}{}\n", chance(5) ? "count(players) - 1" : "0", chance(4) ? " per round" : "");
  out += "var who: player = seat 0\n";
  has_group_ = chance(4);
  if (has_group_) out += fmt::format("var grp: set of player = {}{}\n", pick({"{}", "{seat 0}", "players"}), chance(3) ? " per round" : "");
  if (chance(3)) out += fmt::format("invariant inv: {}\n", bool_expr(2));
  if (chance(4)) out += fmt::format("payoff pay(p): if {} then 1 over {} else {}\n", bool_expr(1), int_expr(1), int_expr(1));
  if (chance(5)) out += "score s(p) = pts(p)\n";
  if (chance(4)) out += fmt::format("terminates game by {}\n", pick({"5 - t", "4 - t", "(4 - t) + n"}));
  if (chance(6)) out += "terminates round\n";
  return out;
}

std::string Generator::block(std::int32_t level, std::int32_t statements) {
  const std::size_t kept = scope_.size();
  std::string out;
  for (std::int32_t i = 0; i < statements; ++i) out += statement(level);
  scope_.resize(kept);
  return out;
}

std::string Generator::labelled(std::string text) {
  if (chance(3)) return fmt::format("rule {}: {}", label(), text);
  return text;
}

std::string Generator::statement(std::int32_t level) {
  const bool nest = level < limits_.max_depth + 1;
  return nest && below(20) < 8 ? compound_statement(level) : simple_statement(level);
}

// A choice by a player: of a small int, a bool, a card or a player.
std::string Generator::choice(std::int32_t level) {
  const std::string x = fresh();
  const std::string who = player_expr(1);
  const std::int32_t what = below(4);
  const std::string rule = label();
  std::string text;
  Type type = Type::kInt;
  if (what == 0) {
    text = fmt::format("choose {} in {{1, 2}} by {}", x, who);
  } else if (what == 1) {
    text = fmt::format("choose {} in {{true, false}} by {}", x, who);
    type = Type::kBool;
  } else if (what == 2) {
    text = fmt::format("choose {} in {} by {}", x, chance(4) ? "all_cards" : zone_expr(false, 1), who);
    type = Type::kCard;
  } else {
    text = fmt::format("choose {} in {} by {}", x, has_group_ && chance(2) ? "grp" : "players", who);
    type = Type::kPlayer;
  }
  if (chance(3)) {
    scope_.push_back({x, type});
    text += fmt::format(" where {}", type == Type::kCard ? card_condition(x, 1) : bool_expr(1));
    scope_.pop_back();
  }
  scope_.push_back({x, type});
  if (type == Type::kInt || type == Type::kBool) policy_rules_.push_back({rule, type});
  return fmt::format("{}rule {}: {}\n", indent(level), rule, text);
}

std::string Generator::move_statement() {
  std::string what;
  switch (below(3)) {
    case 0: what = card_expr(1); break;
    case 1: {
      const std::string c = fresh();
      what = fmt::format("{{{} in {} where {}}}", c, zone_expr(false, 1), card_condition(c, 1));
      break;
    }
    default: what = chance(2) ? fmt::format("top({}, {})", zone_expr(true, 1), below(3)) : zone_expr(false, 1);
  }
  std::string out = fmt::format("move {} to {}", what, zone_expr(false, 1));
  if (chance(4)) out += " at bottom";  // onto a set it is refused by check: the draft is drawn again
  if (chance(3)) out += pick({" face up", " face down"});
  return out;
}

std::string Generator::simple_statement(std::int32_t level) {
  const std::string in = indent(level);
  switch (below(16)) {
    case 0:
    case 1: return choice(level);
    case 2: {
      const std::string x = fresh();
      std::string text = chance(2) ? fmt::format("choose {} in {{0, 1, 2}} at random", x) : fmt::format("choose {} in players at random", x);
      const Type type = text.find("players") != std::string::npos ? Type::kPlayer : Type::kInt;
      scope_.push_back({x, type});
      if (chance(4)) text += fmt::format(" where {}", bool_expr(1));
      return in + labelled(text) + "\n";
    }
    case 3: return in + labelled(move_statement()) + "\n";
    case 4: {
      const bool bottom = chance(4);
      return in + labelled(fmt::format("deal {} from {} to {}{}", below(3), zone_expr(true, 1), zone_expr(bottom, 1), bottom ? " at bottom" : "")) + "\n";
    }
    case 5: return in + labelled(chance(2) ? fmt::format("shuffle {}", zone_expr(true, 1))
                                           : fmt::format("flip {} {}", card_expr(1), pick({"face up", "face down"}))) + "\n";
    case 6: return in + labelled(fmt::format("set n := {}", int_expr(2))) + "\n";
    case 7: return in + labelled(chance(2) ? fmt::format("add {} to pts({})", int_expr(1), player_expr(1))
                                           : fmt::format("set f := {}", bool_expr(2))) + "\n";
    case 8: return in + labelled(fmt::format("set who := {}", player_expr(2))) + "\n";
    case 9:
      if (chance(3) && seats_ > 1) return in + labelled(fmt::format("swap seats {} and {}", player_expr(1), player_expr(1))) + "\n";
      return in + labelled(end_game()) + "\n";
    case 10: {
      // A name for a value, for the rest of the block.
      const std::string x = fresh();
      const std::int32_t what = below(3);
      const std::string value = what == 0 ? int_expr(2) : what == 1 ? bool_expr(2) : player_expr(2);
      scope_.push_back({x, what == 0 ? Type::kInt : what == 1 ? Type::kBool : Type::kPlayer});
      return fmt::format("{}let {} = {}\n", in, x, value);
    }
    case 11:
      if (has_enum_) return in + labelled(fmt::format("set m := {}", pick({"calm", "angry", "none"}))) + "\n";
      return choice(level);
    case 12:
      if (has_group_) {
        const std::string p = player_expr(1);
        return in + labelled(chance(3) ? "set grp := {}" : fmt::format("set grp := grp {} {{{}}}", pick({"+", "-"}), p)) + "\n";
      }
      return in + labelled(fmt::format("set n := {}", int_expr(2))) + "\n";
    case 13:
      // An automated seat is a variable the rules may set.
      if (seats_ > players_ && chance(2)) return in + labelled(fmt::format("set automated({}) := {}", player_expr(1), bool_expr(1))) + "\n";
      return choice(level);
    default: return choice(level);
  }
}

std::string Generator::compound_statement(std::int32_t level) {
  const std::string in = indent(level);
  switch (below(11)) {
    case 0:
    case 1: {
      std::string out = in + labelled(fmt::format("if {} {{\n", bool_expr(2)));
      out += block(level + 1, 1 + below(2));
      if (chance(4)) {
        out += in + fmt::format("}} else if {} {{\n", bool_expr(1));
        out += block(level + 1, 1);
      }
      if (chance(2)) {
        out += in + "} else {\n";
        out += block(level + 1, 1 + below(2));
      }
      return out + in + "}\n";
    }
    case 2: {
      std::string out = in + labelled(fmt::format("repeat {} {{\n", chance(3) ? int_expr(1) : std::to_string(below(3))));
      return out + block(level + 1, 1 + below(2)) + in + "}\n";
    }
    case 3: {
      // A loop on n: it ends when its body raises n past the bound, or never.
      const std::int32_t bound = below(3) + 1;
      std::string out = in + labelled(chance(2) ? fmt::format("while n < {} {{\n", bound) : fmt::format("until n >= {} {{\n", bound));
      out += indent(level + 1) + (chance(5) ? "add 0 to n\n" : "add 1 to n\n");
      return out + block(level + 1, below(2)) + in + "}\n";
    }
    case 4: {
      const std::string p = fresh();
      std::string walk;
      switch (below(3)) {
        case 0: walk = ""; break;
        case 1: walk = fmt::format(" clockwise from {}", player_expr(1)); break;
        default: walk = fmt::format(" counterclockwise from {}", player_expr(1)); break;
      }
      std::string out = in + labelled(fmt::format("for each {} in {}{} {{\n", p, has_group_ && walk.empty() && chance(2) ? "grp" : "players", walk));
      scope_.push_back({p, Type::kPlayer});
      out += block(level + 1, 1 + below(2));
      scope_.pop_back();
      return out + in + "}\n";
    }
    case 5: {
      // A walk over cards: a pile from one end, or a set in card order.
      const std::string c = fresh();
      const bool pile = chance(2);
      std::string out = in + labelled(fmt::format("for each {} in {}{} {{\n", c, zone_expr(pile, 1),
                                                  pile ? pick({" top to bottom", " bottom to top"}) : ""));
      scope_.push_back({c, Type::kCard});
      out += block(level + 1, 1);
      scope_.pop_back();
      return out + in + "}\n";
    }
    case 6: {
      std::string out = in + fmt::format("phase p{} {{\n", ++phases_);
      return out + block(level + 1, 1 + below(2)) + in + "}\n";
    }
    case 7: {
      // Secret choices, then the writes they hold back.
      const std::string p = fresh(), g = fresh();
      std::string out = in + "simultaneous for each " + p + " in players {\n";
      out += fmt::format("{}rule {}: choose {} in {{1, 2}} by {}\n", indent(level + 1), label(), g, p);
      out += fmt::format("{}set pts({}) := {}\n", indent(level + 1), p, g);
      return out + in + "}\n";
    }
    default: {
      // A decision with alternatives.
      const std::string who = player_expr(1), c = fresh();
      std::string out = in + fmt::format("rule {}: choose by {} {{\n", label(), who);
      out += indent(level + 1) + fmt::format("take {} in {}", c, zone_expr(false, 1));
      if (chance(2)) out += " where " + card_condition(c, 1);
      out += " {\n";
      scope_.push_back({c, Type::kCard});
      out += block(level + 2, 1);
      scope_.pop_back();
      out += indent(level + 1) + "}\n";
      out += indent(level + 1) + fmt::format("wait{} {{\n", chance(2) ? " where " + bool_expr(1) : "");
      out += block(level + 2, 1);
      out += indent(level + 1) + "}\n";
      if (chance(3)) out += indent(level + 1) + fmt::format("pass where {}\n", bool_expr(1));
      return out + in + "}\n";
    }
  }
}

std::string Generator::end_game() {
  switch (below(3)) {
    case 0: return "end game";
    case 1: return fmt::format("end game winners {{{}}}", player_expr(1));
    default: {
      const std::string q = fresh();
      scope_.push_back({q, Type::kPlayer});
      std::string cond = bool_expr(1);
      scope_.pop_back();
      return fmt::format("end game winners {{{} in players where {}}}", q, cond);
    }
  }
}

std::string Generator::setup() {
  std::string out = "setup {\n  move box to deck\n";
  if (chance(2)) out += "  shuffle deck\n";
  if (chance(2)) out += fmt::format("  deal {} from deck to {}\n", below(2) + 1, zone_expr(false, 1));
  return out + "}\n";
}

std::string Generator::round() {
  std::string out = "round {\n  add 1 to t\n";
  // Most games end after a few rounds; the others end by their own statements or never.
  if (!chance(6)) out += fmt::format("  if t > {} {{\n    {}\n  }}\n", 1 + below(3), end_game());
  out += block(1, 1 + below(limits_.max_statements));
  return out + "}\n";
}

}  // namespace detail

namespace {

bool passes_check(const std::string& text) {
  grammar::SourceManager sources;
  grammar::Diagnostics diagnostics;
  const grammar::FileId id = sources.add("generated.rules", text);
  auto file = grammar::parse_rules(sources, id, diagnostics);
  if (diagnostics.has_errors()) return false;
  const auto program = grammar::check_program(std::move(file), diagnostics);
  return program.has_value() && !diagnostics.has_errors();
}

}  // namespace

std::string generate_rules(std::uint64_t seed, const GeneratorLimits& limits) { return detail::Generator(seed, limits).file(); }

std::string generate_checked(std::uint64_t seed, const GeneratorLimits& limits, std::int32_t* attempts) {
  for (std::int32_t k = 0; k < 64; ++k) {
    std::string text = generate_rules(seed + (static_cast<std::uint64_t>(k) << 32U), limits);
    if (passes_check(text)) {
      if (attempts != nullptr) *attempts = k + 1;
      return text;
    }
  }
  throw std::runtime_error(fmt::format("the generator drew 64 rule files from seed {} and none passed check", seed));
}

}  // namespace rulebook::differential
