// The generator's typed expressions (generator.hpp): every builtin function and operator of
// the language over the generated frame's names, with binders (quantifiers, comprehensions,
// `first`, `max`/`min` in both forms) whose bound names join the scope of their body.
#include <fmt/format.h>

#include "generator.hpp"

namespace rulebook::differential::detail {

std::string Generator::player_expr(std::int32_t depth) {
  std::vector<std::string> leaves{fmt::format("seat {}", below(seats_)), "who"};
  if (chance(12)) leaves.push_back(fmt::format("seat {}", seats_));  // no such seat: a fault
  for (const Local& l : scope_) {
    if (l.type == Type::kPlayer) leaves.push_back(l.name);
  }
  if (depth <= 0 || chance(2)) return pick_of(leaves);
  switch (below(6)) {
    case 0: return fmt::format("left_of({})", player_expr(depth - 1));
    case 1: return fmt::format("right_of({})", player_expr(depth - 1));
    case 2: return fmt::format("opposite({})", player_expr(depth - 1));
    case 3: {
      const std::string q = fresh();
      scope_.push_back({q, Type::kPlayer});
      std::string cond = bool_expr(depth - 1);
      scope_.pop_back();
      return fmt::format("(first {} in players{} where {})", q, chance(2) ? fmt::format(" clockwise from {}", player_expr(0)) : "", cond);
    }
    case 4: {
      const std::string q = fresh();
      return fmt::format("(min {} in players by distance(who, {}))", q, q);
    }
    default: {
      const std::string q = fresh();
      return fmt::format("(max {} in {} by pts({}))", q, has_group_ && chance(2) ? "grp" : "players", q);
    }
  }
}

std::string Generator::zone_expr(bool pile_only, std::int32_t depth) {
  std::vector<std::string> out;
  for (const Zone& z : zones_) {
    if (pile_only && !z.pile) continue;
    out.push_back(z.per_player ? fmt::format("{}({})", z.name, player_expr(depth - 1)) : z.name);
  }
  return pick_of(out);
}

std::string Generator::card_expr(std::int32_t depth) {
  std::vector<std::string> leaves;
  for (const Local& l : scope_) {
    if (l.type == Type::kCard) leaves.push_back(l.name);
  }
  if (!leaves.empty() && chance(2)) return pick_of(leaves);
  switch (below(4)) {
    case 0: return fmt::format("top({})", zone_expr(true, depth));
    case 1: return fmt::format("bottom({})", zone_expr(true, depth));
    case 2: {
      const std::string c = fresh();
      return fmt::format("(max {} in {} by index({}))", c, zone_expr(true, depth), c);
    }
    default: {
      const std::string c = fresh();
      return fmt::format("(first {} in {})", c, chance(3) ? "all_cards" : zone_expr(false, depth));
    }
  }
}

// A condition on a card named `c` (a filter).
std::string Generator::card_condition(const std::string& c, std::int32_t depth) {
  scope_.push_back({c, Type::kCard});
  std::string out;
  switch (below(6)) {
    case 0: out = fmt::format("kind({}) == {}", c, pick_of(kinds_)); break;
    case 1: out = fmt::format("{} in {}", c, zone_expr(false, depth)); break;
    case 2: out = fmt::format("face_up({})", c); break;
    case 3: out = fmt::format("face_down({})", c); break;
    case 4: out = fmt::format("{} not in {}", c, zone_expr(false, depth)); break;
    default: out = bool_expr(depth); break;
  }
  scope_.pop_back();
  return out;
}

std::string Generator::int_expr(std::int32_t depth) {
  std::vector<std::string> leaves{std::to_string(below(4) - 1), "n", "t", fmt::format("count({})", zone_expr(false, 1))};
  leaves.push_back(fmt::format("pts({})", player_expr(0)));
  if (has_option_) leaves.push_back("o");
  if (has_group_) leaves.push_back("count(grp)");
  if (chance(4)) leaves.push_back(pick({"num_players", "num_seats"}));
  for (const Local& l : scope_) {
    if (l.type == Type::kInt) leaves.push_back(l.name);
  }
  if (depth <= 0 || chance(3)) return pick_of(leaves);
  switch (below(18)) {
    case 0: return fmt::format("({} + {})", int_expr(depth - 1), int_expr(depth - 1));
    case 1: return fmt::format("({} - {})", int_expr(depth - 1), int_expr(depth - 1));
    case 2: return fmt::format("({} * {})", int_expr(depth - 1), int_expr(depth - 1));
    case 3: return fmt::format("({} / {})", int_expr(depth - 1), int_expr(depth - 1));
    case 4: return fmt::format("({} % {})", int_expr(depth - 1), int_expr(depth - 1));
    case 5: return fmt::format("abs({})", int_expr(depth - 1));
    case 6: return fmt::format("{}({}, {})", pick({"max", "min"}), int_expr(depth - 1), int_expr(depth - 1));
    case 7: return fmt::format("(if {} then {} else {})", bool_expr(depth - 1), int_expr(depth - 1), int_expr(depth - 1));
    case 8: {
      const std::string c = fresh();
      return fmt::format("(count {} in {}: {})", c, chance(3) ? "all_cards" : zone_expr(false, depth), card_condition(c, depth - 1));
    }
    case 9: {
      const std::string q = fresh();
      return fmt::format("(sum {} in players: pts({}))", q, q);
    }
    case 10: return fmt::format("(-{})", int_expr(depth - 1));
    case 11: return fmt::format("distance({}, {})", player_expr(depth - 1), player_expr(depth - 1));
    case 12: {
      // The value form of max and min: a fault on an empty set.
      const std::string c = fresh();
      return fmt::format("({} {} in {}: index({}))", pick({"max", "min"}), c, zone_expr(true, depth), c);
    }
    case 13: {
      const std::string q = fresh();
      return fmt::format("(max {} in players: pts({}))", q, q);
    }
    case 14: return fmt::format("rank({})", card_expr(depth - 1));
    case 15: return fmt::format("count(top({}, {}))", zone_expr(true, depth), below(3));
    case 16: return fmt::format("count(subsets(players, 1, {}))", 1 + below(2));
    default: return fmt::format("index({})", card_expr(depth - 1));
  }
}

std::string Generator::comparison(std::int32_t depth) {
  return fmt::format("({} {} {})", int_expr(depth - 1), pick({"<", "<=", ">", ">=", "==", "!="}), int_expr(depth - 1));
}

std::string Generator::bool_expr(std::int32_t depth) {
  std::vector<std::string> leaves{"f", pick({"true", "false"}), fmt::format("empty({})", zone_expr(false, 1))};
  if (has_bool_option_) leaves.push_back("ob");
  if (has_enum_) leaves.push_back(fmt::format("(m == {})", pick({"calm", "angry", "none"})));
  for (const Local& l : scope_) {
    if (l.type == Type::kBool) leaves.push_back(l.name);
  }
  if (depth <= 0 || chance(4)) return pick_of(leaves);
  switch (below(15)) {
    case 0:
    case 1: return comparison(depth);
    case 2: return fmt::format("(not {})", bool_expr(depth - 1));
    case 3: return fmt::format("({} and {})", bool_expr(depth - 1), bool_expr(depth - 1));
    case 4: return fmt::format("({} or {})", bool_expr(depth - 1), bool_expr(depth - 1));
    case 5: return fmt::format("({} {} {})", card_expr(depth - 1), pick({"in", "not in"}), zone_expr(false, depth));
    case 6: {
      const std::string c = fresh();
      return fmt::format("(exists {} in {}: {})", c, chance(3) ? "all_cards" : zone_expr(false, depth), card_condition(c, depth - 1));
    }
    case 7: {
      const std::string c = fresh();
      return fmt::format("(all {} in all_cards: {})", c, card_condition(c, depth - 1));
    }
    case 8: return fmt::format("automated({})", player_expr(depth - 1));
    case 9: return fmt::format("({} {} {})", player_expr(depth - 1), pick({"==", "!="}), player_expr(depth - 1));
    case 10:
      if (has_group_) return fmt::format("({} {} grp)", player_expr(depth - 1), pick({"in", "not in"}));
      return comparison(depth);
    case 11:
      if (has_def_) return fmt::format("big({})", int_expr(depth - 1));
      return comparison(depth);
    case 12: {
      const std::string s = fresh();
      return fmt::format("(exists {} in subsets(players, 1, 2): {} in {})", s, player_expr(depth - 1), s);
    }
    case 13: {
      const std::string q = fresh();
      scope_.push_back({q, Type::kPlayer});
      std::string cond = bool_expr(depth - 1);
      scope_.pop_back();
      return fmt::format("({} {} in players: {})", pick({"exists", "all"}), q, cond);
    }
    default: return fmt::format("({}({}) == none)", pick({"color", "suit"}), card_expr(depth - 1));
  }
}

}  // namespace rulebook::differential::detail
