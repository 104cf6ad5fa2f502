// Every expression kind and builtin, evaluated by the interpreter in a small game (3 players
// on 4 seats, a standard deck and 2 jokers, all cards in `box` at the start).
#include <catch2/catch.hpp>

#include "interpreter/game_fixture.hpp"

using rulebook::test::eval_text;

TEST_CASE("eval: integer arithmetic and comparisons", "[interpreter][eval]") {
  CHECK(eval_text("int", "1 + 2 * 3 - 4") == "3");
  CHECK(eval_text("int", "17 / 5 + 17 % 5") == "5");
  CHECK(eval_text("int", "-(2 - 5)") == "3");
  CHECK(eval_text("bool", "3 < 4 and 4 <= 4 and 5 > 4 and 5 >= 5 and 1 != 2 and 2 == 2") == "true");
  CHECK(eval_text("bool", "not (3 < 4)") == "false");
  CHECK(eval_text("int", "max(3, 9) - min(3, 9)") == "6");
}

TEST_CASE("eval: and/or stop early, so a guarded fault never happens", "[interpreter][eval]") {
  // top(deck) would fault on the empty deck; the left operand decides first.
  CHECK(eval_text("bool", "empty(deck) or rank(top(deck)) > 3") == "true");
  CHECK(eval_text("bool", "not empty(deck) and rank(top(deck)) > 3") == "false");
}

TEST_CASE("eval: conditionals", "[interpreter][eval]") {
  CHECK(eval_text("int", "if 1 > 2 then 10 else if 2 > 1 then 20 else 30") == "20");
}

TEST_CASE("eval: card attributes of standard cards and jokers", "[interpreter][eval]") {
  const std::string queen = "first c in box where rank(c) == queen and suit(c) == hearts";
  CHECK(eval_text("card", queen) == "QH");
  CHECK(eval_text("int", "rank(" + queen + ")") == "12");
  CHECK(eval_text("color", "color(" + queen + ")") == "red");
  CHECK(eval_text("color", "color(first c in box where suit(c) == spades)") == "black");
  CHECK(eval_text("kind", "kind(first c in box where kind(c) == joker)") == "joker");
  CHECK(eval_text("card", "first c in box where kind(c) == joker") == "JK1");
  CHECK(eval_text("suit", "suit(first c in box where kind(c) == joker)") == "none");
  CHECK(eval_text("int", "rank(first c in box where kind(c) == joker)") == "0");
  CHECK(eval_text("int", "count(all_cards)") == "54");
}

TEST_CASE("eval: zones: count, empty, top, bottom, index, face", "[interpreter][eval]") {
  const std::string setup = "  deal 3 from box to deck face up\n";
  // The box holds cards in identity order (2C at the bottom, JK2 on top); a deal takes the
  // top card first and puts each card on top of the target: the deck is JK2 JK1 AS.
  CHECK(eval_text("int", "count(deck)", setup) == "3");
  CHECK(eval_text("card", "top(deck)", setup) == "AS");
  CHECK(eval_text("card", "bottom(deck)", setup) == "JK2");
  CHECK(eval_text("int", "index(top(deck))", setup) == "2");
  CHECK(eval_text("set of card", "top(deck, 2)", setup) == "{AS, JK1}");
  CHECK(eval_text("bool", "face_up(top(deck)) and not face_down(top(deck))", setup) == "true");
  CHECK(eval_text("bool", "empty(hand(seat 1))") == "true");
  CHECK(eval_text("bool", "top(deck) in deck and not (top(deck) in box)", setup) == "true");
}

TEST_CASE("eval: players, seats and seat arithmetic", "[interpreter][eval]") {
  CHECK(eval_text("set of player", "players") == "{player 0, player 1, player 2, player 3}");
  CHECK(eval_text("player", "left_of(seat 3)") == "player 0");
  CHECK(eval_text("player", "right_of(seat 0)") == "player 3");
  CHECK(eval_text("player", "opposite(seat 1)") == "player 3");
  CHECK(eval_text("int", "distance(seat 3, seat 1)") == "2");
  CHECK(eval_text("int", "num_players * 10 + num_seats") == "34");
  CHECK(eval_text("bool", "automated(seat 3) and not automated(seat 2)") == "true");
}

TEST_CASE("eval: sets: literals, union, difference, membership, comprehension", "[interpreter][eval]") {
  CHECK(eval_text("set of player", "players - {seat 0, seat 2} + {seat 0}") == "{player 0, player 1, player 3}");
  CHECK(eval_text("bool", "seat 1 in {seat 1} and seat 2 not in {seat 1}") == "true");
  CHECK(eval_text("set of player", "{p in players where distance(seat 0, p) >= 2}") == "{player 2, player 3}");
  CHECK(eval_text("int", "count({c in box where rank(c) == ace})") == "4");
  CHECK(eval_text("bool", "{} == {p in players where false}") == "true");
}

TEST_CASE("eval: quantifiers", "[interpreter][eval]") {
  CHECK(eval_text("bool", "exists c in box: kind(c) == joker") == "true");
  CHECK(eval_text("bool", "all c in box: kind(c) == standard") == "false");
  CHECK(eval_text("int", "count c in box: color(c) == red") == "26");
  CHECK(eval_text("int", "sum p in players: distance(seat 0, p)") == "6");
  CHECK(eval_text("bool", "all p in {}: false") == "true");
}

TEST_CASE("eval: max and min by several keys, ties go to the later element", "[interpreter][eval]") {
  CHECK(eval_text("card", "max c in box by (color(c) == red, rank(c))") == "AH");
  CHECK(eval_text("card", "min c in box by rank(c)") == "JK2");
  // Every player has the same key: the last one in seat order wins the tie.
  CHECK(eval_text("player", "max p in players by 1") == "player 3");
}

TEST_CASE("eval: first in seat orders and pile orders", "[interpreter][eval]") {
  CHECK(eval_text("player", "first p in players clockwise from seat 2 where p != seat 2") == "player 3");
  CHECK(eval_text("player", "first p in players counterclockwise from seat 2 where p != seat 2") == "player 1");
  const std::string setup = "  deal 3 from box to deck\n";
  CHECK(eval_text("card", "first c in deck bottom to top", setup) == "JK2");
  CHECK(eval_text("card", "first c in deck top to bottom", setup) == "AS");
}

TEST_CASE("eval: subsets of players for pointing at one or two", "[interpreter][eval]") {
  CHECK(eval_text("int", "count(subsets(players - {seat 0}, 1, 2))") == "6");
  CHECK(eval_text("bool", "{seat 1, seat 3} in subsets(players, 2, 2)") == "true");
}

TEST_CASE("eval: definitions with parameters", "[interpreter][eval]") {
  const std::string text =
      "game \"defs\"\nplayers 2\ncards { standard52 }\n"
      "def twice(n: int): int = n * 2\n"
      "def plus(a: int, b: int): int = a + b\n"
      "var out: int = 0\n"
      "setup { set out := plus(twice(3), twice(twice(1))) }\n"
      "round { end game }\n";
  const auto g = rulebook::test::start_game(text);
  CHECK(g.var("out") == "10");
}
