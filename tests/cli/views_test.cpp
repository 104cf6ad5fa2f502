// The game as players see it: the table view and the narrator (interpreter), `replay
// --show-state` with `--as`, round-end scores, and `play`'s view of one player.
#include <catch2/catch.hpp>

#include <regex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "interpreter/game_fixture.hpp"
#include "rulebook/logs/narrator.hpp"
#include "rulebook/logs/table_view.hpp"
#include "support.hpp"

using rulebook::test::run_rulebook;
using rulebook::test::source_path;
namespace ri = rulebook::interpreter;

namespace cli_views_test {  // this file's own names (unity builds put several files in one)
namespace {

using rulebook::test::quoted_path;

std::string clusterfk_replay(const std::string& flags) {
  return "replay " + quoted_path(source_path("rulesets/clusterfk.rules")) + " " +
         quoted_path(source_path("rulesets/examples/clusterfk-table-game.jsonl")) + " " + flags;
}

// Whether `card` appears as a card name of its own (note3 is not in note37).
bool names_card(const std::string& text, const std::string& card) {
  return std::regex_search(text, std::regex("(^|[^A-Za-z0-9_])" + card + "([^A-Za-z0-9_]|$)"));
}

// The text from `from` up to the next `to` (or the end).
std::string between(const std::string& text, const std::string& from, const std::string& to) {
  const std::size_t a = text.find(from);
  if (a == std::string::npos) return "";
  const std::size_t b = text.find(to, a + from.size());
  return text.substr(a, b == std::string::npos ? std::string::npos : b - a);
}

// Two players; the deck is the box in card order (2C at the bottom, AS on top), so the deal
// is known: hand(0) = KS AS, hand(1) = JS QS, 10S face up on a hidden pile, 9S face down on
// a public one.
const char* const kSmall = R"(game "views"
players 2
cards { standard52 }
zone deck: pile hidden
zone hand(p): set owner
zone shown(p): pile hidden
zone middle: pile public
score held(p) = count(hand(p))
setup {
  move box to deck face down
  rule deal_hands: for each p in players {
    deal 2 from deck to hand(p)
  }
  rule show: move top(deck) to shown(seat 0) face up
  move top(deck) to middle face down
}
round {
  rule give: choose c in hand(seat 0) by seat 0
  move c to hand(seat 1)
  end game
}
)";

const std::vector<std::string> kNames{"player 0", "player 1"};

}  // namespace

TEST_CASE("views: the table view shows what a seat may see, hides the rest and keeps the counts", "[views]") {
  rulebook::test::Game game = rulebook::test::start_game(kSmall, 2);
  const ri::Machine& m = *game.machine;
  const ri::CardId ks = m.card_by_name(game.state, "KS");
  const ri::CardId js = m.card_by_name(game.state, "JS");
  const ri::CardId ten = m.card_by_name(game.state, "10S");
  const ri::CardId nine = m.card_by_name(game.state, "9S");
  // Own hand (owner zone), not another's; face up anywhere; a public zone's face-down card.
  CHECK(ri::sees_card(m.ir(), game.state, ks, 0));
  CHECK_FALSE(ri::sees_card(m.ir(), game.state, ks, 1));
  CHECK_FALSE(ri::sees_card(m.ir(), game.state, ks, ri::kTableViewer));
  CHECK(ri::sees_card(m.ir(), game.state, js, 1));
  CHECK(ri::sees_card(m.ir(), game.state, ten, ri::kTableViewer));
  CHECK(ri::sees_card(m.ir(), game.state, nine, ri::kTableViewer));

  const std::string seat0 = ri::render_table_view(m, game.state, ri::table_view(m, game.state, 0), kNames, "");
  INFO(seat0);
  CHECK(seat0.find("round 1, 0 moves; player 0 to choose: give\n") == 0);
  CHECK(std::regex_search(seat0, std::regex(R"(hand\(player 0\) +\[2\] (KS AS|AS KS)\n)")));
  CHECK(std::regex_search(seat0, std::regex(R"(hand\(player 1\) +\[2\] ## ##\n)")));
  CHECK(std::regex_search(seat0, std::regex(R"(deck +\[46\] ##x46\n)")));
  CHECK(std::regex_search(seat0, std::regex(R"(shown\(player 0\) +\[1\] 10S\^\n)")));  // face up where the zone hides
  CHECK(std::regex_search(seat0, std::regex(R"(middle +\[1\] 9S\n)")));                // public: no mark
  CHECK(seat0.find("held: player 0 2, player 1 2\n") != std::string::npos);
  CHECK_FALSE(names_card(seat0, "JS"));
  CHECK_FALSE(names_card(seat0, "QS"));

  const std::string table = ri::render_table_view(m, game.state, ri::table_view(m, game.state, ri::kTableViewer), kNames, "");
  INFO(table);
  for (const char* hidden : {"KS", "AS", "QS", "JS", "8S"}) CHECK_FALSE(names_card(table, hidden));
  CHECK(names_card(table, "10S"));
  CHECK(names_card(table, "9S"));
}

TEST_CASE("views: the narrator tells each player the events as it saw them", "[views]") {
  const auto machine = rulebook::test::machine_for(kSmall);
  ri::Narrator narrator(*machine, {0, 1}, kNames);
  ri::GameConfig config;
  config.players = 2;
  ri::State state = machine->start(config, &narrator);
  const std::vector<std::string> zero = narrator.take(state, 0);
  const std::vector<std::string> one = narrator.take(state, 1);
  const auto has = [](const std::vector<std::string>& lines, const std::string& line) {
    return std::find(lines.begin(), lines.end(), line) != lines.end();
  };
  CHECK(has(zero, "AS KS dealt from deck to hand(player 0) (deal_hands)"));
  CHECK(has(zero, "2 cards dealt from deck to hand(player 1) (deal_hands)"));
  CHECK(has(one, "2 cards dealt from deck to hand(player 0) (deal_hands)"));
  CHECK(has(one, "QS JS dealt from deck to hand(player 1) (deal_hands)"));
  CHECK(has(one, "10S moved from deck to shown(player 0) (show)"));
  CHECK(has(one, "9S moved from deck to middle"));
  CHECK(narrator.take(state, 1).empty());  // taken once

  // Player 0 gives KS to player 1: player 1 learns the card when it arrives, not before.
  const auto& legal = machine->legal_moves(state);
  std::size_t ks = 0;
  while (machine->value_text(state, legal[ks]) != "KS") ++ks;
  machine->apply(state, ks, &narrator);
  const std::vector<std::string> after = narrator.take(state, 1);
  INFO(fmt::format("{}", fmt::join(after, "\n")));
  CHECK(has(after, "player 0 chose a card (give)"));
  CHECK(has(after, "KS moved from hand(player 0) to hand(player 1)"));
  CHECK(has(after, "the game ends after round 1"));
  const std::vector<std::string> own = narrator.take(state, 0);
  CHECK_FALSE(has(own, "player 0 chose KS (give)"));  // a player is not told its own choice
  CHECK(has(own, "KS moved from hand(player 0) to hand(player 1)"));
}

TEST_CASE("views: replay --show-state step shows a seat's zones and scores after each step", "[views]") {
  const auto r = run_rulebook(clusterfk_replay("--show-state step --as Ann"));
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("states as Ann sees them") != std::string::npos);
  // Before step 1: Ann's hand as dealt, the others' counted.
  const std::string start = between(r.out, "before step 1\n", "step    1 ");
  INFO(start);
  CHECK(std::regex_search(start, std::regex(R"(hand\(Ann\) +\[4\] note17 note3 note28 note9\n)")));
  CHECK(std::regex_search(start, std::regex(R"(hand\(Bob\) +\[4\] ##x4\n)")));
  CHECK(start.find("score_cards: Ann 0, Bob 0, Cy 0, Dee 0") != std::string::npos);
  // After step 3 (Ann passed note3 to Cy): Bob is to choose, Cy holds five cards.
  const std::string after3 = between(r.out, "step    3 ", "step    4 ");
  INFO(after3);
  CHECK(after3.find("round 1, 3 moves; Bob to choose: pass_or_slam") != std::string::npos);
  CHECK(std::regex_search(after3, std::regex(R"(hand\(Ann\) +\[3\] note17 note28 note9\n)")));
  CHECK(std::regex_search(after3, std::regex(R"(hand\(Cy\) +\[5\] ##x5\n)")));
  // Bob's pass of a note Ann never saw is hidden in the step line too; Ann's own is not.
  CHECK(std::regex_search(r.out, std::regex(R"(step    5  line 16    Bob      \(hidden\) )")));
  CHECK(std::regex_search(r.out, std::regex(R"(step    2  line 13    Ann      note3 )")));
}

TEST_CASE("views: a card hidden from a seat is never printed in its view nor in the table's", "[views]") {
  // note37 goes from the deck to Bob's hand and stays there: only Bob ever sees it.
  for (const std::string as : {"Ann", "table", "2"}) {
    for (const std::string mode : {"step", "round"}) {
      const auto r = run_rulebook(clusterfk_replay("--trace --show-state " + mode + " --as " + as));
      INFO(as << " " << mode << "\n" << r.out);
      REQUIRE(r.exit_code == 0);
      CHECK_FALSE(names_card(r.out, "note37"));
      CHECK_FALSE(names_card(r.out, "note15"));  // never leaves the deck
      const auto j = run_rulebook(clusterfk_replay("--format json --trace --show-state " + mode + " --as " + as));
      REQUIRE(j.exit_code == 0);
      const auto json = nlohmann::json::parse(j.out);
      CHECK_FALSE(json["logs"][0]["states"].empty());
      CHECK_FALSE(names_card(json["logs"][0]["states"].dump(), "note37"));
      CHECK_FALSE(names_card(json["logs"][0]["trace"].dump(), "note37"));
    }
  }
  // Bob sees it: the view hides only what the seat may not see.
  const auto bob = run_rulebook(clusterfk_replay("--show-state round --as Bob"));
  CHECK(std::regex_search(bob.out, std::regex(R"(hand\(Bob\) +\[4\] note2 note11 note37 note24\n)")));
  CHECK_FALSE(names_card(bob.out, "note15"));
}

TEST_CASE("views: replay prints the scores at the end of every round, in --trace and in JSON", "[views]") {
  const auto r = run_rulebook(clusterfk_replay("--trace"));
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("round 1 ends after step 25: score_cards: Ann 1, Bob 1, Cy 0, Dee 0\nstep   26 ") != std::string::npos);
  CHECK(r.out.find("round 2 ends after step 39, and the game with it: score_cards: Ann 1, Bob 1, Cy 0, Dee 0\n") !=
        std::string::npos);
  const auto j = run_rulebook(clusterfk_replay("--format json"));
  REQUIRE(j.exit_code == 0);
  const auto rounds = nlohmann::json::parse(j.out)["logs"][0]["round_scores"];
  REQUIRE(rounds.size() == 2);
  CHECK(rounds[0]["round"] == 1);
  CHECK(rounds[0]["after_step"] == 25);
  CHECK(rounds[0]["scores"]["score_cards"] == nlohmann::json::array({1, 1, 0, 0}));
  CHECK(rounds[1]["game_ended"] == true);

  // Molestation, by round, as the table: each round's end with its two scores and the state.
  const auto m = run_rulebook("replay " + quoted_path(source_path("rulesets/molestation-game.rules")) + " " +
                              quoted_path(source_path("rulesets/examples/molestation-table-game.jsonl")) + " --show-state round");
  INFO(m.out);
  REQUIRE(m.exit_code == 0);
  CHECK(m.out.find("round 1 ends after step 44: sexperience: Ann 0, Bob 0, Dummy North 0, Dummy South 0; "
                   "trauma: Ann 3, Bob 1, Dummy North 0, Dummy South 0\n    round 1, 44 moves\n") != std::string::npos);
  CHECK(m.out.find("round 3, 155 moves; game over, won by Bob") != std::string::npos);
  CHECK(m.out.find("\nstep ") == std::string::npos);  // by round, without --trace: no steps
}

TEST_CASE("views: replay refuses --as without --show-state and a player the log does not have", "[views]") {
  const auto no_show = run_rulebook(clusterfk_replay("--as Ann"));
  CHECK(no_show.exit_code == 2);
  const auto unknown = run_rulebook(clusterfk_replay("--show-state step --as Zed"));
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("--as Zed: the log's players are Ann, Bob, Cy, Dee") != std::string::npos);
  const auto bad_mode = run_rulebook(clusterfk_replay("--show-state often"));
  CHECK(bad_mode.exit_code == 2);
}

TEST_CASE("views: play shows the player's view and what the others did, the whole state only with --debug", "[views]") {
  const std::string play = "play " + quoted_path(source_path("rulesets/clusterfk.rules")) + " --players 4 --seed 3";
  std::string input;
  for (int i = 0; i < 40; ++i) input += "1\n";
  const auto debug = run_rulebook(play + " --debug", input);
  const auto r = run_rulebook(play, input);
  INFO(r.out);
  // Its own hand, without the old `*` ("face down") on cards only its owner holds.
  CHECK(std::regex_search(r.out, std::regex(R"(hand\(player 0\) +\[4\] note9 note5 note6 note10\n)")));
  CHECK(std::regex_search(r.out, std::regex(R"(hand\(player 1\) +\[4\] ##x4\n)")));
  CHECK(r.out.find("score_cards: player 0 0, player 1 0, player 2 0, player 3 0") != std::string::npos);
  CHECK(r.out.find("note9*") == std::string::npos);
  // No dump of internal variables without --debug; the dump with it.
  CHECK(r.out.find("variables:") == std::string::npos);
  CHECK(r.out.find("automated") == std::string::npos);
  CHECK(r.out.find("targets(") == std::string::npos);
  CHECK(debug.out.find("variables:") != std::string::npos);
  CHECK(debug.out.find("automated: false, false, false, false") != std::string::npos);
  // What the others did, as player 0 saw it: their choices by rule, a note passed unseen.
  CHECK(r.out.find("since the game began:\n") != std::string::npos);
  CHECK(r.out.find("since your last choice:\n") != std::string::npos);
  CHECK(std::regex_search(r.out, std::regex(R"(\n  - player [123] chose (pass|slam) \(pass_or_slam\))")));
  CHECK(std::regex_search(r.out, std::regex(R"(\n  - a card moved from hand\(player [123]\) to hand\(player [123]\) \(pass_notes\)\n)")));
  // Player 1's hand at the first choice (from the debug dump) is not in player 0's view.
  std::smatch hand;
  REQUIRE(std::regex_search(debug.out, hand, std::regex(R"(hand\(1\) \[4\]: (\S+)\* (\S+)\* (\S+)\* (\S+)\*)")));
  const std::string first = between(r.out, "since the game began:", "choice (");
  for (std::size_t i = 1; i <= 4; ++i) CHECK_FALSE(names_card(first, hand[i].str()));
}

}  // namespace cli_views_test
