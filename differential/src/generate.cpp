// The rule-file generator: a fixed frame (players, cards, zones, a round counter that ends the
// game after a few rounds in most files) around random declarations, statements and typed
// expressions. Expressions are built from what is in scope with their types, so that nearly
// every draft passes `check`; compound ones are parenthesised, so precedence never matters.
// Defects come from the draws themselves: a deal from a pile that may be empty, a division by
// a value that may be 0, a choice whose filter may leave nothing, a loop that may not end.
#include "rulebook/differential/generate.hpp"

#include <random>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "rulebook/grammar/check.hpp"
#include "rulebook/grammar/parse.hpp"

namespace rulebook::differential {

namespace {

enum class Type { kInt, kBool, kPlayer, kCard };

struct Local {
  std::string name;
  Type type;
};

struct Zone {
  std::string name;
  bool per_player = false;
  bool pile = true;
};

class Generator {
 public:
  Generator(std::uint64_t seed, const GeneratorLimits& limits) : rng_(seed), limits_(limits) {}

  std::string file() {
    players_ = 1 + below(limits_.max_players);
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
    has_option_ = chance(3);
    if (has_option_) out += fmt::format("option o: int = {} in 0..2\n", below(3));
    out += "var t: int = 0\n";
    // Initial values are read at the start and, per round, at every round start.
    out += fmt::format("var n: int = {}{}\n", chance(3) ? int_expr(1) : std::to_string(below(3)), chance(3) ? " per round" : "");
    out += fmt::format("var f: bool = {}{}\n", chance(3) ? bool_expr(1) : pick({"true", "false"}), chance(3) ? " per round" : "");
    out += fmt::format("var pts(p): int = 0{}\n", chance(4) ? " per round" : "");
    out += "var who: player = seat 0\n";
    if (chance(3)) out += fmt::format("invariant inv: {}\n", bool_expr(2));
    if (chance(4)) out += fmt::format("payoff pay(p): if {} then 1 over {} else {}\n", bool_expr(1), int_expr(1), int_expr(1));
    if (chance(4)) out += fmt::format("terminates game by {}\n", pick({"5 - t", "4 - t", "(4 - t) + n"}));
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

 private:
  std::mt19937_64 rng_;
  GeneratorLimits limits_;
  std::int32_t players_ = 1, seats_ = 1;
  std::string cards_text_;
  std::vector<std::string> kinds_;
  std::vector<Zone> zones_;
  std::vector<Local> scope_;
  std::vector<Local> policy_rules_;  // labelled choices (type of their domain) a policy may name
  bool has_option_ = false;
  std::int32_t labels_ = 0, names_ = 0;

  // Uniform in 0..n-1 (by the remainder: the same on every standard library).
  std::int32_t below(std::int32_t n) { return static_cast<std::int32_t>(rng_() % static_cast<std::uint64_t>(n)); }
  bool chance(std::int32_t one_in) { return below(one_in) == 0; }
  std::string pick(std::initializer_list<const char*> options) {
    return *(options.begin() + below(static_cast<std::int32_t>(options.size())));
  }
  std::string label() { return fmt::format("r{}", ++labels_); }
  std::string fresh() { return fmt::format("x{}", ++names_); }

  void declare_cards() {
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

  void declare_zones() {
    zones_.push_back({"deck", false, true});
    zones_.push_back({"pot", false, true});
    if (chance(2)) zones_.push_back({"bag", false, false});
    if (chance(2)) zones_.push_back({"hand", true, false});
    if (chance(3)) zones_.push_back({"tab", true, true});
  }

  std::string player_expr(std::int32_t depth) {
    std::vector<std::string> leaves{fmt::format("seat {}", below(seats_)), "who"};
    if (chance(12)) leaves.push_back(fmt::format("seat {}", seats_));  // no such seat: a fault
    for (const Local& l : scope_) {
      if (l.type == Type::kPlayer) leaves.push_back(l.name);
    }
    if (depth <= 0 || chance(2)) return leaves[static_cast<std::size_t>(below(static_cast<std::int32_t>(leaves.size())))];
    switch (below(4)) {
      case 0: return fmt::format("left_of({})", player_expr(depth - 1));
      case 1: return fmt::format("right_of({})", player_expr(depth - 1));
      case 2: {
        const std::string q = fresh();
        scope_.push_back({q, Type::kPlayer});
        std::string cond = bool_expr(depth - 1);
        scope_.pop_back();
        return fmt::format("(first {} in players where {})", q, cond);
      }
      default: {
        const std::string q = fresh();
        return fmt::format("(max {} in players by pts({}))", q, q);
      }
    }
  }

  std::string zone_expr(bool pile_only, std::int32_t depth) {
    std::vector<std::string> out;
    for (const Zone& z : zones_) {
      if (pile_only && !z.pile) continue;
      out.push_back(z.per_player ? fmt::format("{}({})", z.name, player_expr(depth - 1)) : z.name);
    }
    return out[static_cast<std::size_t>(below(static_cast<std::int32_t>(out.size())))];
  }

  std::string card_expr(std::int32_t depth) {
    std::vector<std::string> leaves;
    for (const Local& l : scope_) {
      if (l.type == Type::kCard) leaves.push_back(l.name);
    }
    if (!leaves.empty() && chance(2)) return leaves[static_cast<std::size_t>(below(static_cast<std::int32_t>(leaves.size())))];
    switch (below(3)) {
      case 0: return fmt::format("top({})", zone_expr(true, depth));
      case 1: return fmt::format("bottom({})", zone_expr(true, depth));
      default: {
        const std::string c = fresh();
        return fmt::format("(first {} in {})", c, chance(3) ? "all_cards" : zone_expr(false, depth));
      }
    }
  }

  // A condition on a card named `c` (a filter).
  std::string card_condition(const std::string& c, std::int32_t depth) {
    scope_.push_back({c, Type::kCard});
    std::string out;
    switch (below(4)) {
      case 0: out = fmt::format("kind({}) == {}", c, kinds_[static_cast<std::size_t>(below(static_cast<std::int32_t>(kinds_.size())))]); break;
      case 1: out = fmt::format("{} in {}", c, zone_expr(false, depth)); break;
      case 2: out = fmt::format("face_up({})", c); break;
      default: out = bool_expr(depth); break;
    }
    scope_.pop_back();
    return out;
  }

  std::string int_expr(std::int32_t depth) {
    std::vector<std::string> leaves{std::to_string(below(4) - 1), "n", "t", fmt::format("count({})", zone_expr(false, 1))};
    leaves.push_back(fmt::format("pts({})", player_expr(0)));
    if (has_option_) leaves.push_back("o");
    for (const Local& l : scope_) {
      if (l.type == Type::kInt) leaves.push_back(l.name);
    }
    if (depth <= 0 || chance(3)) return leaves[static_cast<std::size_t>(below(static_cast<std::int32_t>(leaves.size())))];
    switch (below(11)) {
      case 0: return fmt::format("({} + {})", int_expr(depth - 1), int_expr(depth - 1));
      case 1: return fmt::format("({} - {})", int_expr(depth - 1), int_expr(depth - 1));
      case 2: return fmt::format("({} * {})", int_expr(depth - 1), int_expr(depth - 1));
      case 3: return fmt::format("({} / {})", int_expr(depth - 1), int_expr(depth - 1));
      case 4: return fmt::format("({} % {})", int_expr(depth - 1), int_expr(depth - 1));
      case 5: return fmt::format("abs({})", int_expr(depth - 1));
      case 6: return fmt::format("max({}, {})", int_expr(depth - 1), int_expr(depth - 1));
      case 7: return fmt::format("(if {} then {} else {})", bool_expr(depth - 1), int_expr(depth - 1), int_expr(depth - 1));
      case 8: {
        const std::string c = fresh();
        return fmt::format("(count {} in {}: {})", c, chance(3) ? "all_cards" : zone_expr(false, depth), card_condition(c, depth - 1));
      }
      case 9: {
        const std::string q = fresh();
        return fmt::format("(sum {} in players: pts({}))", q, q);
      }
      default: return fmt::format("index({})", card_expr(depth - 1));
    }
  }

  std::string bool_expr(std::int32_t depth) {
    std::vector<std::string> leaves{"f", pick({"true", "false"}), fmt::format("empty({})", zone_expr(false, 1))};
    for (const Local& l : scope_) {
      if (l.type == Type::kBool) leaves.push_back(l.name);
    }
    if (depth <= 0 || chance(4)) return leaves[static_cast<std::size_t>(below(static_cast<std::int32_t>(leaves.size())))];
    switch (below(10)) {
      case 0: return fmt::format("({} < {})", int_expr(depth - 1), int_expr(depth - 1));
      case 1: return fmt::format("({} == {})", int_expr(depth - 1), int_expr(depth - 1));
      case 2: return fmt::format("(not {})", bool_expr(depth - 1));
      case 3: return fmt::format("({} and {})", bool_expr(depth - 1), bool_expr(depth - 1));
      case 4: return fmt::format("({} or {})", bool_expr(depth - 1), bool_expr(depth - 1));
      case 5: return fmt::format("({} in {})", card_expr(depth - 1), zone_expr(false, depth));
      case 6: {
        const std::string c = fresh();
        return fmt::format("(exists {} in {}: {})", c, chance(3) ? "all_cards" : zone_expr(false, depth), card_condition(c, depth - 1));
      }
      case 7: {
        const std::string c = fresh();
        return fmt::format("(all {} in all_cards: {})", c, card_condition(c, depth - 1));
      }
      case 8: return fmt::format("automated({})", player_expr(depth - 1));
      default: return fmt::format("({} == {})", player_expr(depth - 1), player_expr(depth - 1));
    }
  }

  std::string indent(std::int32_t level) const { return std::string(static_cast<std::size_t>(2 * level), ' '); }

  std::string block(std::int32_t level, std::int32_t statements) {
    const std::size_t kept = scope_.size();
    std::string out;
    for (std::int32_t i = 0; i < statements; ++i) out += statement(level);
    scope_.resize(kept);
    return out;
  }

  std::string labelled(std::string text) {
    if (chance(3)) return fmt::format("rule {}: {}", label(), text);
    return text;
  }

  std::string statement(std::int32_t level) {
    const std::string in = indent(level);
    const bool nest = level < limits_.max_depth + 1;
    switch (below(nest ? 18 : 11)) {
      case 0:
      case 1: {
        // A choice by a player: of a small int, a bool, a card or a player.
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
          text = fmt::format("choose {} in players by {}", x, who);
          type = Type::kPlayer;
        }
        if (chance(3)) {
          scope_.push_back({x, type});
          text += fmt::format(" where {}", type == Type::kCard ? card_condition(x, 1) : bool_expr(1));
          scope_.pop_back();
        }
        scope_.push_back({x, type});
        if (type == Type::kInt || type == Type::kBool) policy_rules_.push_back({rule, type});
        return fmt::format("{}rule {}: {}\n", in, rule, text);
      }
      case 2: {
        const std::string x = fresh();
        std::string text = chance(2) ? fmt::format("choose {} in {{0, 1, 2}} at random", x) : fmt::format("choose {} in players at random", x);
        const Type type = text.find("players") != std::string::npos ? Type::kPlayer : Type::kInt;
        scope_.push_back({x, type});
        if (chance(4)) text += fmt::format(" where {}", bool_expr(1));
        return in + labelled(text) + "\n";
      }
      case 3: return in + labelled(fmt::format("move {} to {}", card_expr(1), zone_expr(false, 1))) + "\n";
      case 4: {
        const std::string c = fresh();
        return in + labelled(fmt::format("move {{{} in {} where {}}} to {}", c, zone_expr(false, 1), card_condition(c, 1), zone_expr(false, 1))) + "\n";
      }
      case 5: return in + labelled(fmt::format("deal {} from {} to {}", below(3), zone_expr(true, 1), zone_expr(false, 1))) + "\n";
      case 6: return in + labelled(chance(2) ? fmt::format("shuffle {}", zone_expr(true, 1)) : fmt::format("flip {} face up", card_expr(1))) + "\n";
      case 7: return in + labelled(fmt::format("set n := {}", int_expr(2))) + "\n";
      case 8: return in + labelled(chance(2) ? fmt::format("add {} to pts({})", int_expr(1), player_expr(1))
                                             : fmt::format("set f := {}", bool_expr(2))) + "\n";
      case 9: return in + labelled(fmt::format("set who := {}", player_expr(2))) + "\n";
      case 10:
        if (chance(3) && seats_ > 1) return in + labelled(fmt::format("swap seats {} and {}", player_expr(1), player_expr(1))) + "\n";
        return in + labelled(end_game()) + "\n";
      case 11:
      case 12: {
        std::string out = in + labelled(fmt::format("if {} {{\n", bool_expr(2)));
        out += block(level + 1, 1 + below(2));
        if (chance(2)) {
          out += in + "} else {\n";
          out += block(level + 1, 1 + below(2));
        }
        return out + in + "}\n";
      }
      case 13: {
        std::string out = in + labelled(fmt::format("repeat {} {{\n", chance(3) ? int_expr(1) : std::to_string(below(3))));
        return out + block(level + 1, 1 + below(2)) + in + "}\n";
      }
      case 14: {
        // A loop on n: it ends when its body raises n past the bound, or never.
        std::string out = in + labelled(fmt::format("while n < {} {{\n", below(3) + 1));
        out += indent(level + 1) + (chance(5) ? "add 0 to n\n" : "add 1 to n\n");
        return out + block(level + 1, below(2)) + in + "}\n";
      }
      case 15: {
        const std::string p = fresh();
        std::string out = in + labelled(fmt::format("for each {} in players{} {{\n", p, chance(2) ? fmt::format(" clockwise from {}", player_expr(1)) : ""));
        scope_.push_back({p, Type::kPlayer});
        out += block(level + 1, 1 + below(2));
        scope_.pop_back();
        return out + in + "}\n";
      }
      case 16: {
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
        return out + in + "}\n";
      }
    }
  }

  std::string end_game() {
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

  std::string setup() {
    std::string out = "setup {\n  move box to deck\n";
    if (chance(2)) out += "  shuffle deck\n";
    if (chance(2)) out += fmt::format("  deal {} from deck to {}\n", below(2) + 1, zone_expr(false, 1));
    return out + "}\n";
  }

  std::string round() {
    std::string out = "round {\n  add 1 to t\n";
    // Most games end after a few rounds; the others end by their own statements or never.
    if (!chance(6)) out += fmt::format("  if t > {} {{\n    {}\n  }}\n", 1 + below(3), end_game());
    out += block(1, 1 + below(limits_.max_statements));
    return out + "}\n";
  }
};

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

std::string generate_rules(std::uint64_t seed, const GeneratorLimits& limits) { return Generator(seed, limits).file(); }

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
