// The grammar, one construct at a time: each snippet parses to the expected tree (shown as a
// span-free S-expression), and the grammar itself passes PEGTL's analysis.
#include <catch2/catch.hpp>

#include "rulebook/grammar/dump.hpp"
#include "rulebook/grammar/parse.hpp"
#include "support.hpp"

using rulebook::test::expr;
using rulebook::test::parse_text;
using rulebook::test::stmts;

namespace grammar_parse_test {  // this file's own names (unity builds put several files in one)
namespace {

// The declarations of a whole file, one S-expression per line, without the header line.
std::string decls(const std::string& text) {
  const auto p = parse_text(text);
  REQUIRE_FALSE(p.diagnostics.has_errors());
  const std::string all = rulebook::grammar::dump_ast(p.file);
  return all.substr(all.find('\n') + 1);
}

}  // namespace

TEST_CASE("grammar: PEGTL analysis finds no left recursion or empty loops", "[grammar]") {
  CHECK(rulebook::grammar::analyze_grammar() == 0);
}

// ---- files and declarations --------------------------------------------------------------

TEST_CASE("grammar: game header and player range", "[grammar]") {
  const auto p = parse_text("game \"Highest \\\"card\\\"\"\nplayers 2..4\nseats 4\n");
  REQUIRE_FALSE(p.diagnostics.has_errors());
  CHECK(p.file.kind == rulebook::grammar::ast::FileKind::kGame);
  CHECK(p.file.title == "Highest \"card\"");
  CHECK(rulebook::grammar::dump_ast(p.file) == "(game \"Highest \\\"card\\\"\")\n(players 2 4)\n(seats 4)\n");
}

TEST_CASE("grammar: a fixed player count is a range of one", "[grammar]") {
  CHECK(decls("game \"t\"\nplayers 3\n") == "(players 3 3)\n");
}

TEST_CASE("grammar: cards: the standard deck, jokers and declared kinds with counts", "[grammar]") {
  CHECK(decls("game \"t\"\ncards {\n  standard52\n  jokers 2\n  note: notes + 1\n  chlamydia: 1\n}\n") ==
        "(cards standard52 (jokers 2) (note (+ notes 1)) (chlamydia 1))\n");
}

TEST_CASE("grammar: enums", "[grammar]") {
  CHECK(decls("game \"t\"\nenum gesture { point, finger, ogle }\n") == "(enum gesture point finger ogle)\n");
}

TEST_CASE("grammar: zones: per player or shared, pile or set, with visibility", "[grammar]") {
  CHECK(decls("game \"t\"\nzone deck: pile hidden\nzone hand(p): set owner\nzone table(p): pile public\n") ==
        "(zone deck pile hidden)\n(zone hand(p) set owner)\n(zone table(p) pile public)\n");
}

TEST_CASE("grammar: state variables: typed, per player, reset per round", "[grammar]") {
  CHECK(decls("game \"t\"\nvar leader: player = seat 0\nvar points(p): int = 0\n"
              "var seen(p): set of card = {} per round\n") ==
        "(var leader player (seat 0))\n(var points(p) int 0)\n(var seen(p) (set card) { } per-round)\n");
}

TEST_CASE("grammar: options with a range and a description", "[grammar]") {
  CHECK(decls("game \"t\"\noption notes: int = 40 in 32..200 \"note cards\"\noption ogling: bool = false\n") ==
        "(option notes int 40 32..200 \"note cards\")\n(option ogling bool false \"\")\n");
}

TEST_CASE("grammar: definitions with and without parameters and result types", "[grammar]") {
  CHECK(decls("game \"t\"\ndef lead = seat 0\ndef high(c: card, n: int): bool = rank(c) > n\ndef none_yet() = 0\n") ==
        "(def lead : _ (seat 0))\n"
        "(def high params (c card) (n int) : bool (> (rank c) n))\n"
        "(def none_yet params : _ 0)\n");
}

TEST_CASE("grammar: scores, invariants and termination claims", "[grammar]") {
  CHECK(decls("game \"t\"\nscore total(p) = points(p) * 2\ninvariant small: x < 10\n"
              "terminates game\nterminates round by 15 - x\nterminates sessions\n") ==
        "(score total(p) (* (points p) 2))\n(invariant small (< x 10))\n(terminates game)\n"
        "(terminates round by (- 15 x))\n(terminates sessions)\n");
}

TEST_CASE("grammar: setup, round and policy blocks", "[grammar]") {
  CHECK(decls("game \"t\"\nsetup { shuffle deck }\nround { end game }\n"
              "policy dummy {\n  pick: first c in legal\n  target: chooser\n}\n") ==
        "(setup { (shuffle deck) })\n(round { (end-game) })\n"
        "(policy dummy (pick (first c legal)) (target chooser))\n");
}

TEST_CASE("grammar: variant header and overrides of options, rules and definitions", "[grammar]") {
  const auto p = parse_text(
      "variant \"Quick\" of \"../base.rules\"\n"
      "override option rounds = 2\n"
      "override rule deal_hands: deal 5 from deck to hand(seat 0)\n"
      "override def lead: player = seat 1\n"
      "var extra: int = 1\n");
  REQUIRE_FALSE(p.diagnostics.has_errors());
  CHECK(p.file.kind == rulebook::grammar::ast::FileKind::kVariant);
  CHECK(p.file.base_path == "../base.rules");
  CHECK(rulebook::grammar::dump_ast(p.file) ==
        "(variant \"Quick\" of \"../base.rules\")\n"
        "(override-option rounds 2)\n"
        "(override (rule deal_hands (deal 5 deck (hand (seat 0)))))\n"
        "(override (def lead : player (seat 1)))\n"
        "(var extra int 1)\n");
}

TEST_CASE("grammar: comments run to the end of the line anywhere layout is allowed", "[grammar]") {
  CHECK(decls("# leading\ngame \"t\" # after the title\nplayers # between tokens\n  2 # after\n") ==
        "(players 2 2)\n");
}

// ---- statements --------------------------------------------------------------------------

TEST_CASE("grammar: labelled rules", "[grammar]") {
  CHECK(stmts("rule mix: shuffle deck") == "(rule mix (shuffle deck))");
}

TEST_CASE("grammar: phases, repeat, while and until", "[grammar]") {
  CHECK(stmts("phase passing { repeat 3 { add 1 to x } }") == "(phase passing { (repeat 3 { (add 1 x) }) })");
  CHECK(stmts("while x < 3 { add 1 to x }") == "(while (< x 3) { (add 1 x) })");
  CHECK(stmts("until x == 3 { add 1 to x }") == "(until (== x 3) { (add 1 x) })");
}

TEST_CASE("grammar: for each, in seat order from a seat or through a pile", "[grammar]") {
  CHECK(stmts("for each p in players clockwise from seat 1 { deal 1 from deck to hand(p) }") ==
        "(for p players (clockwise (seat 1)) { (deal 1 deck (hand p)) })");
  CHECK(stmts("for each p in players counterclockwise from left_of(seat 0) { add 1 to x }") ==
        "(for p players (counterclockwise (left_of (seat 0))) { (add 1 x) })");
  CHECK(stmts("for each c in deck bottom to top { flip c face up }") ==
        "(for c deck (bottom-to-top) { (flip c up) })");
  CHECK(stmts("for each c in deck top to bottom { flip c face down }") ==
        "(for c deck (top-to-bottom) { (flip c down) })");
  CHECK(stmts("for each p in players { add 1 to x }") == "(for p players { (add 1 x) })");
}

TEST_CASE("grammar: if, else if and else", "[grammar]") {
  CHECK(stmts("if x == 1 { add 1 to x } else if x == 2 { add 2 to x } else { end game }") ==
        "(if (== x 1) { (add 1 x) } (== x 2) { (add 2 x) } else { (end-game) })");
}

TEST_CASE("grammar: simultaneous secret choices with a filtered domain", "[grammar]") {
  CHECK(stmts("simultaneous for each p in players {\n"
              "  choose c in hand(p) by p where rank(c) > 5\n"
              "  set x := rank(c)\n"
              "}") ==
        "(simultaneous p players { (choose c (hand p) by p where (> (rank c) 5)) (set x (rank c)) })");
}

TEST_CASE("grammar: let, set and add", "[grammar]") {
  CHECK(stmts("let n = count(deck)\nset x := n\nadd n * 2 to x") ==
        "(let n (count deck))\n(set x n)\n(add (* n 2) x)");
}

TEST_CASE("grammar: move with placement and face, deal, shuffle and flip", "[grammar]") {
  CHECK(stmts("move top(deck) to hand(seat 0) at bottom face down") ==
        "(move (top deck) (hand (seat 0)) bottom down)");
  CHECK(stmts("move {c in deck where rank(c) > 10} to deck at top") ==
        "(move {c in deck where (> (rank c) 10)} deck top)");
  CHECK(stmts("deal 3 from deck to hand(seat 1) face up") == "(deal 3 deck (hand (seat 1)) up)");
  CHECK(stmts("shuffle deck") == "(shuffle deck)");
  CHECK(stmts("flip top(deck) face up") == "(flip (top deck) up)");
}

TEST_CASE("grammar: swapping seats and ending the game with winners", "[grammar]") {
  CHECK(stmts("swap seats seat 0 and right_of(seat 0)") == "(swap (seat 0) (right_of (seat 0)))");
  CHECK(stmts("end game winners {p in players where x > 2}") ==
        "(end-game {p in players where (> x 2)})");
  CHECK(stmts("end game") == "(end-game)");
}

// ---- expressions -------------------------------------------------------------------------

TEST_CASE("grammar: precedence: or < and < not < comparison < + - < * / % < unary minus", "[grammar]") {
  CHECK(expr("true or false and not x == 1 + 2 * -3") ==
        "(or true (and false (not (== x (+ 1 (* 2 (neg 3)))))))");
  CHECK(expr("(1 + 2) * 3 % 4 / 5 - 6") == "(- (/ (% (* (+ 1 2) 3) 4) 5) 6)");
  CHECK(expr("x != 1 and x <= 2 or x >= 3 and x > 4 and x < 5") ==
        "(or (and (!= x 1) (<= x 2)) (and (and (>= x 3) (> x 4)) (< x 5)))");
}

TEST_CASE("grammar: membership and sets", "[grammar]") {
  CHECK(expr("seat 0 in players") == "(in (seat 0) players)");
  CHECK(expr("seat 0 not in {seat 1, seat 2}") == "(not-in (seat 0) { (seat 1) (seat 2) })");
  CHECK(expr("{}") == "{ }");
  CHECK(expr("players - {seat 0} + {seat 1}") == "(+ (- players { (seat 0) }) { (seat 1) })");
}

TEST_CASE("grammar: comprehensions and quantifiers", "[grammar]") {
  CHECK(expr("{c in deck where rank(c) == queen}") == "{c in deck where (== (rank c) queen)}");
  CHECK(expr("exists p in players: count(hand(p)) == 0") == "(exists p players (== (count (hand p)) 0))");
  CHECK(expr("all p in players: x > 0") == "(all p players (> x 0))");
  CHECK(expr("count c in deck: face_up(c)") == "(count c deck (face_up c))");
  CHECK(expr("sum p in players: count(hand(p))") == "(sum p players (count (hand p)))");
}

TEST_CASE("grammar: maximum and minimum by several keys", "[grammar]") {
  CHECK(expr("max c in deck by (suit(c) == hearts, rank(c), index(c))") ==
        "(max c deck by (== (suit c) hearts) (rank c) (index c))");
  CHECK(expr("min p in players by distance(seat 0, p)") == "(min p players by (distance (seat 0) p))");
}

TEST_CASE("grammar: first in an order with a filter", "[grammar]") {
  CHECK(expr("first p in players counterclockwise from seat 2 where x > 1") ==
        "(first p players (counterclockwise (seat 2)) where (> x 1))");
  CHECK(expr("first c in deck top to bottom") == "(first c deck (top-to-bottom))");
  CHECK(expr("first c in deck") == "(first c deck)");
}

TEST_CASE("grammar: conditionals, literals and calls", "[grammar]") {
  CHECK(expr("if x > 1 then none else seat 3") == "(if (> x 1) none (seat 3))");
  CHECK(expr("count(deck) + max(1, 2) - min(3, 4)") == "(- (+ (count deck) (max 1 2)) (min 3 4))");
  CHECK(expr("top(deck, 2)") == "(top deck 2)");
  CHECK(expr("bottom(deck)") == "(bottom deck)");
}

// ---- spans ---------------------------------------------------------------------------------

TEST_CASE("grammar: every node has the span of its text, without trailing comments", "[grammar]") {
  const auto p = parse_text("game \"t\"\nround {\n  rule mix: shuffle deck  # why\n  end game\n}\n");
  REQUIRE_FALSE(p.diagnostics.has_errors());
  const auto& round = std::get<rulebook::grammar::ast::RoundDecl>(p.file.decls.at(0).node);
  const auto& rule = round.body.stmts.at(0);
  CHECK(rule.span.line == 3);
  CHECK(rule.span.column == 3);
  CHECK(rule.span.end_line == 3);
  CHECK(rule.span.end_column == 25);  // just after "deck"
  const auto& body = std::get<rulebook::grammar::ast::RuleStmt>(rule.node).body;
  CHECK(body->span.column == 13);
  CHECK(round.body.span.line == 2);
  CHECK(round.body.span.end_line == 5);
  CHECK(round.body.span.end_column == 2);
}

}  // namespace grammar_parse_test
