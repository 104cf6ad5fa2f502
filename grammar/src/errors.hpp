// One message per grammar rule that can be required (appears inside must<>). The control
// in parse.cpp static_asserts that a message exists, so a new must<> cannot go without one.
// The parser appends ", but got '...'" with the token found there.
#pragma once

#include "grammar.hpp"

namespace rulebook::grammar::peg {

template <typename Rule>
inline constexpr const char* error_message = nullptr;

#define RULEBOOK_ERROR(rule, text) \
  template <>                      \
  inline constexpr const char* error_message<rule> = text

// lexical
RULEBOOK_ERROR(name, "expected a name");
RULEBOOK_ERROR(string_close, "expected '\"' to close the string");
RULEBOOK_ERROR(dotdot, "expected '..' in the range");
RULEBOOK_ERROR(lbrace, "expected '{'");
RULEBOOK_ERROR(equals, "expected '='");
RULEBOOK_ERROR(assign, "expected ':=' between the variable and its new value");

// expressions
RULEBOOK_ERROR(expr, "expected an expression");
RULEBOOK_ERROR(add_expr, "expected an expression");
RULEBOOK_ERROR(or_operand, "expected an expression after 'or'");
RULEBOOK_ERROR(and_operand, "expected an expression after 'and' or 'not'");
RULEBOOK_ERROR(cmp_operand, "expected an expression after the comparison");
RULEBOOK_ERROR(add_operand, "expected an expression after '+' or '-'");
RULEBOOK_ERROR(mul_operand, "expected an expression after the operator");
RULEBOOK_ERROR(paren_close, "expected ')' to close the parenthesis");
RULEBOOK_ERROR(seat_index, "expected a seat number after 'seat'");
RULEBOOK_ERROR(domain, "expected the set to range over after 'in'");
RULEBOOK_ERROR(filter, "expected a condition after 'where'");
RULEBOOK_ERROR(set_close, "expected '}' to close the set");
RULEBOOK_ERROR(binder_colon, "expected ':' before the body of the quantifier");
RULEBOOK_ERROR(body, "expected an expression after ':'");
RULEBOOK_ERROR(extremum_by, "expected 'by' and the ordering key");
RULEBOOK_ERROR(extremum_rest, "expected 'by' and the ordering key (the element), or ':' and a value (the largest or smallest value)");
RULEBOOK_ERROR(key, "expected an ordering key, or several in parentheses");
RULEBOOK_ERROR(kw_from, "expected 'from' and the starting player");
RULEBOOK_ERROR(order_start, "expected the starting player after 'from'");
RULEBOOK_ERROR(kw_in, "expected 'in'");
RULEBOOK_ERROR(cond_then, "expected 'then' in the conditional expression");
RULEBOOK_ERROR(cond_else, "expected 'else' in the conditional expression");
RULEBOOK_ERROR(call_close, "expected ')' to close the argument list");
RULEBOOK_ERROR(range_is_not_a_set, "a range 'A..B' is not a set: list its values, as in {1, 2, 3}");
RULEBOOK_ERROR(where_in_call, "expected ')': 'where' filters a set, not an argument; write 'count x in S: C' "
                              "or count({x in S where C})");
RULEBOOK_ERROR(binder_is_not_a_call, "'sum', 'exists' and 'all' are binders, not functions: write 'sum x in S: VALUE', "
                                     "'exists x in S: C', 'all x in S: C'");

// types
RULEBOOK_ERROR(type, "expected a type (int, bool, player, card, set of T, or an enum name)");
RULEBOOK_ERROR(kw_of, "expected 'of'");

// statements
RULEBOOK_ERROR(statement, "expected a statement");
RULEBOOK_ERROR(labelled_statement, "expected a statement");
RULEBOOK_ERROR(block, "expected '{' to open a block");
RULEBOOK_ERROR(block_close, "expected '}' to close the block");
RULEBOOK_ERROR(rule_colon, "expected ':' after the rule label");
RULEBOOK_ERROR(kw_each, "expected 'each'");
RULEBOOK_ERROR(kw_for, "expected 'for each'");
RULEBOOK_ERROR(for_in, "expected 'in' and the set to range over");
RULEBOOK_ERROR(walk_direction, "expected 'clockwise from X' or 'counterclockwise from X': a walk around the table "
                               "needs a direction");
RULEBOOK_ERROR(choose_by, "expected 'by' and the player who chooses, or 'at random'");
RULEBOOK_ERROR(random_word, "expected 'random' after 'at'");
RULEBOOK_ERROR(no_chooser, "a random choice has no chooser: 'at random' and 'by' cannot be combined");
RULEBOOK_ERROR(chooser, "expected the player who chooses after 'by'");
RULEBOOK_ERROR(alternatives_open, "expected '{' and the alternatives of the decision");
RULEBOOK_ERROR(alternative, "expected an alternative: a name, optionally 'x in SET', 'where CONDITION' and a block");
RULEBOOK_ERROR(alternatives_close, "expected '}' to close the alternatives, or another alternative");
RULEBOOK_ERROR(move_to, "expected 'to' and the target");
RULEBOOK_ERROR(target_zone, "expected the target zone or variable after 'to'");
RULEBOOK_ERROR(deal_from, "expected 'from' and the zone to deal from");
RULEBOOK_ERROR(source_zone, "expected a zone");
RULEBOOK_ERROR(face_word, "expected 'up' or 'down' after 'face'");
RULEBOOK_ERROR(placement_word, "expected 'top' or 'bottom' after 'at'");
RULEBOOK_ERROR(facing, "expected 'face up' or 'face down'");
RULEBOOK_ERROR(lvalue, "expected a variable to change");
RULEBOOK_ERROR(kw_seats, "expected 'seats' after 'swap'");
RULEBOOK_ERROR(swap_and, "expected 'and' between the two players");
RULEBOOK_ERROR(end_game, "expected 'game' after 'end'");

// declarations
RULEBOOK_ERROR(declaration, "expected a declaration (players, seats, cards, enum, zone, var, option, def, score, payoff, setup, round, policy, invariant, terminates or override)");
RULEBOOK_ERROR(players_min, "expected the smallest number of players");
RULEBOOK_ERROR(players_max, "expected the largest number of players");
RULEBOOK_ERROR(players_default_count, "expected the default number of players after 'default'");
RULEBOOK_ERROR(payoff_colon, "expected ':' and the payoff's value");
RULEBOOK_ERROR(payoff_value, "expected the payoff's value: an int expression, 'N over D', or 'if C then VALUE else VALUE'");
RULEBOOK_ERROR(seats_count, "expected the number of seats");
RULEBOOK_ERROR(jokers_count, "expected the number of jokers");
RULEBOOK_ERROR(kind_colon, "expected ':' and the number of cards of this kind");
RULEBOOK_ERROR(cards_close, "expected '}' to close the card list, or a card item (standard52, jokers N, NAME: COUNT)");
RULEBOOK_ERROR(enum_close, "expected '}' to close the enum");
RULEBOOK_ERROR(param_close, "expected ')' to close the parameter list");
RULEBOOK_ERROR(zone_colon, "expected ':' and the zone's shape");
RULEBOOK_ERROR(zone_shape, "expected 'pile' (ordered) or 'set' (unordered)");
RULEBOOK_ERROR(visibility, "expected 'hidden', 'owner' or 'public'");
RULEBOOK_ERROR(type_colon, "expected ':' and a type");
RULEBOOK_ERROR(init_equals, "expected '=' and a value");
RULEBOOK_ERROR(kw_round, "expected 'round' after 'per'");
RULEBOOK_ERROR(range_min, "expected the smallest allowed value");
RULEBOOK_ERROR(range_max, "expected the largest allowed value");
RULEBOOK_ERROR(param, "expected a parameter (name: type)");
RULEBOOK_ERROR(player_param, "expected '(' and the player parameter");
RULEBOOK_ERROR(policy_colon, "expected ':' and the choice the policy makes");
RULEBOOK_ERROR(policy_close, "expected '}' to close the policy, or an entry (RULE: CHOICE)");
RULEBOOK_ERROR(invariant_colon, "expected ':' and the condition");
RULEBOOK_ERROR(terminates_target, "expected 'game', 'round' or a rule label");
RULEBOOK_ERROR(measure, "expected a measure after 'by'");
RULEBOOK_ERROR(override_what, "expected 'option', 'rule' or 'def' after 'override'");

// files
RULEBOOK_ERROR(header, "expected 'game \"Title\"' or 'variant \"Title\" of \"base.rules\"' at the start of the file");
RULEBOOK_ERROR(title, "expected a title in double quotes");
RULEBOOK_ERROR(variant_of, "expected 'of' and the base ruleset's path");
RULEBOOK_ERROR(base_path, "expected the base ruleset's path in double quotes");
RULEBOOK_ERROR(end_of_file, "expected a declaration");

#undef RULEBOOK_ERROR

}  // namespace rulebook::grammar::peg
