// Molestation Game v3.0 scenarios: each test deals explicit cards (no seed decides
// anything), applies moves and checks what the rulebook's section demands. Test names cite
// the section of rulebooks/molestation-game-v3.0.txt.
#include <catch2/catch.hpp>

#include <algorithm>

#include "rulesets/molestation_fixture.hpp"

using rulebook::test::at_seat;
using rulebook::test::chat;
using rulebook::test::empty_into;
using rulebook::test::Game;
using rulebook::test::MolestationDeal;
using rulebook::test::play_first_moves_until;
using rulebook::test::seat_to_move;
using rulebook::test::stack;
using rulebook::test::start_molestation;
using Strings = std::vector<std::string>;

namespace rulesets_molestation_test {  // this file's own names (unity builds put several files in one)
namespace {

// Four humans. Roles around the table: seat 0 AS, seat 1 JC, seat 2 QD, seat 3 KH, so that
// each seat can molest the next one clockwise (A wants J, J wants Q, Q wants K, K wants A).
MolestationDeal base_deal() {
  MolestationDeal d;
  d.roles = {"AS", "JC", "QD", "KH"};
  d.next_roles = {"QH", "KC", "AD", "JH"};
  d.hands = {Strings{"8C", "2S", "10S"}, Strings{"2C", "9D", "5H"}, Strings{"10H", "3D", "6S"},
             Strings{"9S", "4H", "7C"}};
  d.draws = {"2D", "8H", "4S", "5S"};
  return d;
}

std::string rule_to_move(const Game& g) {
  REQUIRE(g.state.decision);
  return g.machine->ir().labels[static_cast<std::size_t>(g.state.decision->rule)];
}

bool face_up(const Game& g, const std::string& card) {
  return g.state.card_face_up[static_cast<std::size_t>(g.machine->card_by_name(g.state, card))] != 0;
}

std::size_t count_in(const Game& g, const std::string& zone, int player = -1) { return g.zone(zone, player).size(); }

// At the first decision of session 15 of the current round, with every role a queen (no
// victims: nobody holds a king) and every hand one known card, the memories set as given.
void last_session_with_memories(Game& g, const std::array<Strings, 4>& memories) {
  const std::int64_t round = g.state.rounds;
  play_first_moves_until(g, [&](const Game& x) { return x.state.rounds == round && x.int_var("session") == 15; });
  REQUIRE_FALSE(g.state.finished);
  for (int p = 0; p < 4; ++p) {
    empty_into(g, "memories", p, "trash");
    empty_into(g, "hand", p, "trash");
    empty_into(g, "role", p, "trash");
    empty_into(g, "covered", p, "trash");
  }
  const Strings queens{"QC", "QD", "QH", "QS"};
  const Strings last_cards{"2C", "3C", "4C", "5C"};
  for (int p = 0; p < 4; ++p) {
    stack(g, "role", p, {queens[static_cast<std::size_t>(p)]});
    stack(g, "hand", p, {last_cards[static_cast<std::size_t>(p)] + "*"});
    stack(g, "memories", p, memories[static_cast<std::size_t>(p)]);
  }
  REQUIRE(g.zone("role_deck").empty());
  g.refresh();
}

Strings reds(int n) {
  const Strings all{"JD", "KD", "AD", "JH", "KH", "AH", "2D", "2H"};
  return Strings(all.begin(), all.begin() + n);
}

Strings blacks(int n, int offset) {
  const Strings all{"JC", "KC", "AC", "JS", "KS", "AS", "6C", "6S", "7C", "7S", "8C", "8S", "9C", "9S", "10C"};
  return Strings(all.begin() + offset, all.begin() + offset + n);
}

}  // namespace

// ---- DECK & STARTUP --------------------------------------------------------------------

TEST_CASE("molestation DECK & STARTUP: two decks, one joker face up at the bottom of the role deck",
          "[molestation][scenario]") {
  const Game g = start_molestation(base_deal());
  const Strings roles = g.zone("role_deck");
  REQUIRE(roles.size() == 14);  // 18 role cards, 4 dealt
  CHECK(roles.front() == "JK1");
  CHECK(face_up(g, "JK1"));
  CHECK(std::count_if(roles.begin(), roles.end(), [&](const std::string& c) { return face_up(g, c); }) == 2);
  CHECK(count_in(g, "social_deck") == 24);  // 36 social cards, 12 dealt
  CHECK(g.state.cards->size() == 54);
}

TEST_CASE("molestation DECK & STARTUP: 1 role face up and 3 hand cards each, the top role is turned face up",
          "[molestation][scenario]") {
  const Game g = start_molestation(base_deal());
  const std::array<std::string, 4> roles{"AS", "JC", "QD", "KH"};
  for (int p = 0; p < 4; ++p) {
    CHECK(g.zone("role", p) == Strings{roles[static_cast<std::size_t>(p)]});
    CHECK(face_up(g, roles[static_cast<std::size_t>(p)]));
    CHECK(count_in(g, "hand", p) == 3);
  }
  CHECK(g.zone("role_deck").back() == "QH");
  CHECK(face_up(g, "QH"));
}

TEST_CASE("molestation DECK & STARTUP: the player on the dealer's left starts the round", "[molestation][scenario]") {
  const Game g = start_molestation(base_deal());
  CHECK(seat_to_move(g) == 1);
  CHECK(rule_to_move(g) == "talk_dirty");
  CHECK(g.legal() == Strings{"2C", "9D", "5H"});  // a hand is a set: in card order
}

// ---- SOCIAL WORLD: CHATS, DIRTY TALK, TRUMP SUIT ------------------------------------------

TEST_CASE("molestation CHATS: each player plays a card face up and draws a new hand card", "[molestation][scenario]") {
  Game g = start_molestation(base_deal());
  chat(g, {"9D"});
  CHECK(g.zone("talk", 1) == Strings{"9D"});
  CHECK(face_up(g, "9D"));
  CHECK(g.zone("hand", 1) == Strings{"2C", "2D", "5H"});
  CHECK(count_in(g, "social_deck") == 23);
  CHECK(seat_to_move(g) == 2);  // clockwise
}

TEST_CASE("molestation DIRTY TALK: a trump card is dirtier than a higher non-trump card", "[molestation][scenario]") {
  Game g = start_molestation(base_deal());
  chat(g, {"2C", "10H", "9S", "8C"});  // only 2C is a trump (seat 1 holds a club role)
  CHECK(seat_to_move(g) == 1);
  CHECK(rule_to_move(g) == "choose_victim");
}

TEST_CASE("molestation DIRTY TALK: otherwise the higher number is dirtier", "[molestation][scenario]") {
  Game g = start_molestation(base_deal());
  chat(g, {"9D", "10H", "7C", "8C"});  // no trumps
  CHECK(seat_to_move(g) == 2);
}

TEST_CASE("molestation DIRTY TALK: of equally dirty cards the latest one is the dirtiest", "[molestation][scenario]") {
  Game g = start_molestation(base_deal());
  chat(g, {"9D", "6S", "9S", "8C"});  // 9D and 9S, neither a trump: 9S was played later
  CHECK(seat_to_move(g) == 3);
}

TEST_CASE("molestation TRUMP SUIT: each player's trump is its own role's suit, equal trumps go to the later card",
          "[molestation][scenario]") {
  Game g = start_molestation(base_deal());
  chat(g, {"2C", "6S", "7C", "2S"});  // 2C is seat 1's trump, 2S seat 0's; 7C is no trump for seat 3
  CHECK(seat_to_move(g) == 0);
}

TEST_CASE("molestation TRUMP SUIT: a joker's trump is the suit of the next role card", "[molestation][scenario]") {
  MolestationDeal d = base_deal();
  d.roles = {"AS", "JK2", "QD", "KH"};  // the next role is QH: seat 1's trump is hearts
  Game g = start_molestation(d);
  chat(g, {"5H", "10H", "9S", "8C"});  // 10H is no trump for seat 2 (a diamond role)
  CHECK(seat_to_move(g) == 1);
}

TEST_CASE("molestation TRUMP SUIT: in the last session a joker has no trump suit", "[molestation][scenario]") {
  Game g = start_molestation(base_deal());
  last_session_with_memories(g, {});
  empty_into(g, "role", 1, "trash");
  stack(g, "role", 1, {"JK2"});
  empty_into(g, "hand", 1, "trash");
  empty_into(g, "hand", 2, "trash");
  stack(g, "hand", 1, {"5H*"});
  stack(g, "hand", 2, {"9D*"});
  // Seat 2's role is QD: 9D is its trump. Give it QC instead, so that no card is a trump.
  empty_into(g, "role", 2, "trash");
  stack(g, "role", 2, {"QC"});
  empty_into(g, "role", 0, "trash");
  stack(g, "role", 0, {"KS"});  // a king: seat 2 (a queen) can molest it
  g.refresh();
  play_first_moves_until(g, [](const Game& x) { return x.machine->ir().labels[static_cast<std::size_t>(x.state.decision->rule)] != "talk_dirty"; });
  // 5H would be seat 1's trump if the joker took a suit; it does not, and 9D is higher.
  CHECK(seat_to_move(g) == 2);
  CHECK(rule_to_move(g) == "choose_victim");
}

// ---- MOLESTING: TO MOLEST OR TO CHANGE FACE ----------------------------------------------

TEST_CASE("molestation TO MOLEST: the dirtiest talker with victims chooses one, the cycle of love gives them",
          "[molestation][scenario]") {
  Game g = start_molestation(base_deal());
  chat(g, {"2C", "10H", "9S", "8C"});
  CHECK(g.legal() == Strings{"player 2"});  // the Boy (J) wants the Lady (Q)
  Game a = start_molestation(base_deal());
  chat(a, {"2C", "6S", "7C", "2S"});
  CHECK(a.legal() == Strings{"player 1"});  // the Perverted Old Man (A) wants the Boy (J)
  Game k = start_molestation(base_deal());
  chat(k, {"9D", "6S", "9S", "8C"});
  CHECK(k.legal() == Strings{"player 0"});  // the King (K) wants the Perverted Old Man (A)
}

TEST_CASE("molestation CHANGING FACE: acceptable escape when a molestator is around", "[molestation][scenario]") {
  MolestationDeal d = base_deal();
  d.roles = {"AS", "JC", "KD", "KH"};  // no queen: seat 1 (a jack) has no victim; seat 0 (an ace) wants it
  Game g = start_molestation(d);
  chat(g, {"2C", "6S", "7C", "8C"});
  // No decision: the face changes at once, and the dirtiest talker leads the next chat.
  CHECK(seat_to_move(g) == 1);
  CHECK(g.int_var("session") == 2);
  CHECK(g.zone("covered", 1) == Strings{"JC"});
  CHECK_FALSE(face_up(g, "JC"));
  CHECK(g.zone("role", 1) == Strings{"QH"});
  CHECK(g.zone("memories", 1).empty());
}

TEST_CASE("molestation CHANGING FACE: shameful escape is a self-desex", "[molestation][scenario]") {
  MolestationDeal d = base_deal();
  d.roles = {"KS", "JC", "KD", "KH"};  // nobody wants a jack: no ace, and jokers want red roles
  Game g = start_molestation(d);
  chat(g, {"2C", "6S", "7C", "8C"});
  CHECK(g.zone("memories", 1) == Strings{"JC"});
  CHECK_FALSE(face_up(g, "JC"));
  CHECK(g.zone("role", 1) == Strings{"QH"});
  CHECK(g.zone("covered", 1).empty());
}

// ---- SHOWING LOVE and SIDE-EFFECTS --------------------------------------------------------

TEST_CASE("molestation SEXPERIENCING: a red victim's role goes face up into the molestator's memories",
          "[molestation][scenario]") {
  Game g = start_molestation(base_deal());
  chat(g, {"2C", "10H", "9S", "8C"});
  g.choose("player 2");
  CHECK(g.legal() == Strings{"take", "desex"});
  g.choose("take");
  CHECK(g.zone("memories", 1) == Strings{"QD"});
  CHECK(face_up(g, "QD"));
  CHECK(g.zone("memories", 2).empty());
  CHECK(rule_to_move(g) == "keep_or_give");  // seat 1 is a black molestator
}

TEST_CASE("molestation SIDE-EFFECTS: a black molestator may keep its role, the victim takes the next role",
          "[molestation][scenario]") {
  Game g = start_molestation(base_deal());
  chat(g, {"2C", "10H", "9S", "8C"});
  g.choose("player 2");
  g.choose("take");
  g.choose("keep");
  CHECK(g.zone("role", 1) == Strings{"JC"});
  CHECK(g.zone("role", 2) == Strings{"QH"});
  CHECK(seat_to_move(g) == 1);  // the current social leader starts the next chat
  CHECK(g.int_var("session") == 2);
}

TEST_CASE("molestation SIDE-EFFECTS: a black molestator may give its role away and take the next role",
          "[molestation][scenario]") {
  Game g = start_molestation(base_deal());
  chat(g, {"2C", "10H", "9S", "8C"});
  g.choose("player 2");
  g.choose("take");
  g.choose("give");
  CHECK(g.zone("role", 2) == Strings{"JC"});
  CHECK(g.zone("role", 1) == Strings{"QH"});
}

TEST_CASE("molestation TRAUMATIZING: a black victim's role goes face up into the victim's memories",
          "[molestation][scenario]") {
  Game g = start_molestation(base_deal());
  chat(g, {"9D", "6S", "7C", "2S"});  // seat 0 (AS) is the dirtiest
  g.choose("player 1");
  g.choose("take");
  CHECK(g.zone("memories", 1) == Strings{"JC"});
  CHECK(face_up(g, "JC"));
  CHECK(g.zone("memories", 0).empty());
  CHECK(rule_to_move(g) == "keep_or_give");
}

TEST_CASE("molestation SIDE-EFFECTS: a red molestator gives its role to the victim and takes the next role",
          "[molestation][scenario]") {
  Game g = start_molestation(base_deal());
  chat(g, {"9D", "3D", "9S", "8C"});  // 3D is seat 2's trump
  g.choose("player 3");
  g.choose("take");
  CHECK(g.zone("memories", 2) == Strings{"KH"});
  CHECK(g.zone("role", 3) == Strings{"QD"});
  CHECK(g.zone("role", 2) == Strings{"QH"});
  CHECK(rule_to_move(g) == "talk_dirty");  // no choice for a red molestator
  CHECK(seat_to_move(g) == 2);
}

TEST_CASE("molestation DESEXING: the own role goes face down to the victim, the hunter takes the victim's role",
          "[molestation][scenario]") {
  Game g = start_molestation(base_deal());
  chat(g, {"2C", "10H", "9S", "8C"});
  g.choose("player 2");
  g.choose("desex");
  CHECK(g.zone("memories", 2) == Strings{"JC"});
  CHECK_FALSE(face_up(g, "JC"));
  CHECK(g.zone("role", 1) == Strings{"QD"});
  CHECK(g.zone("role", 2) == Strings{"QH"});
  CHECK(rule_to_move(g) == "talk_dirty");
}

TEST_CASE("molestation: every outcome of a session uses exactly one next available role", "[molestation][scenario]") {
  Game g = start_molestation(base_deal());
  chat(g, {"2C", "10H", "9S", "8C"});
  g.choose("player 2");
  g.choose("take");
  g.choose("keep");
  CHECK(count_in(g, "role_deck") == 13);
  CHECK(g.zone("role_deck").back() == "KC");
  CHECK(face_up(g, "KC"));  // turned at the start of the new chat
}

// ---- JOKER LOVE ---------------------------------------------------------------------------

TEST_CASE("molestation JOKER LOVE: a joker can show love to any red role, not to a black one", "[molestation][scenario]") {
  MolestationDeal d = base_deal();
  d.roles = {"AS", "JK2", "QD", "KH"};
  Game g = start_molestation(d);
  chat(g, {"5H", "10H", "9S", "8C"});
  CHECK(g.legal() == Strings{"player 2", "player 3"});
}

TEST_CASE("molestation JOKER LOVE: after molesting a red role the joker must be given to the victim",
          "[molestation][scenario]") {
  MolestationDeal d = base_deal();
  d.roles = {"AS", "JK2", "QD", "KH"};
  Game g = start_molestation(d);
  chat(g, {"5H", "10H", "9S", "8C"});
  g.choose("player 3");
  g.choose("take");
  CHECK(g.zone("memories", 1) == Strings{"KH"});  // a sexperience
  CHECK(g.zone("role", 3) == Strings{"JK2"});
  CHECK(g.zone("role", 1) == Strings{"QH"});
  CHECK(rule_to_move(g) == "talk_dirty");
}

TEST_CASE("molestation JOKER LOVE: a black role may molest a joker, which becomes a trauma", "[molestation][scenario]") {
  MolestationDeal d = base_deal();
  d.roles = {"AS", "JC", "JK2", "KH"};
  Game g = start_molestation(d);
  chat(g, {"2C", "6S", "9S", "8C"});
  CHECK(g.legal() == Strings{"player 2"});
  g.choose("player 2");
  g.choose("take");
  CHECK(g.zone("memories", 2) == Strings{"JK2"});
  CHECK(face_up(g, "JK2"));
}

TEST_CASE("molestation JOKER LOVE: a red role never molests a joker", "[molestation][scenario]") {
  MolestationDeal d = base_deal();
  d.roles = {"AS", "JK2", "QD", "KS"};
  Game g = start_molestation(d);
  chat(g, {"9D", "3D", "7C", "8C"});  // seat 2 (QD, red) is the dirtiest
  CHECK(seat_to_move(g) == 2);
  CHECK(g.legal() == Strings{"player 3"});  // the king only, not the joker in seat 1
}

// ---- ENDING: INTERMISSION, END OF THE ROUND, SCORING ----------------------------------------

TEST_CASE("molestation INTERMISSION: after 6 sessions the played cards are reshuffled into a new social deck",
          "[molestation][scenario]") {
  Game g = start_molestation(base_deal());
  play_first_moves_until(g, [](const Game& x) { return x.int_var("session") == 6; });
  CHECK(count_in(g, "social_deck") == 4);  // the last four draws are still to come
  play_first_moves_until(g, [](const Game& x) { return x.int_var("session") == 7; });
  CHECK(count_in(g, "social_deck") == 24);
  CHECK(count_in(g, "played") == 0);
  for (int p = 0; p < 4; ++p) CHECK(count_in(g, "hand", p) == 3);  // hands are kept
}

TEST_CASE("molestation INTERMISSION: the deck is not reshuffled again, hands run out after 15 sessions",
          "[molestation][scenario]") {
  Game g = start_molestation(base_deal());
  play_first_moves_until(g, [](const Game& x) { return x.int_var("session") == 13; });
  CHECK(count_in(g, "social_deck") == 0);
  play_first_moves_until(g, [](const Game& x) { return x.int_var("session") == 15; });
  CHECK(count_in(g, "social_deck") == 0);
  CHECK(count_in(g, "role_deck") == 0);  // 4 dealt + 14 sessions: no role is left for the last one
  for (int p = 0; p < 4; ++p) CHECK(count_in(g, "hand", p) == 1);
  play_first_moves_until(g, [](const Game& x) { return x.state.rounds == 2; });
  CHECK(g.int_var("session") == 1);
}

TEST_CASE("molestation ENDING OF THE ROUND: desex cards cancel red cards beneath them, and only those",
          "[molestation][scenario]") {
  Game g = start_molestation(base_deal());
  last_session_with_memories(g, {Strings{"KD", "AC*", "KH"},         // AC* cancels KD; KH counts
                                 Strings{"AD*", "JD"},               // nothing beneath AD*: removed alone
                                 Strings{"JH", "KC", "JC*"},         // JC* cancels JH, past the black KC
                                 Strings{"AH", "JS*", "KS*", "JK2"}}); // JS* cancels AH; KS* alone; JK2 a trauma
  play_first_moves_until(g, [](const Game& x) { return x.state.rounds == 2; });
  CHECK(g.int_var("sexperiences", 0) == 1);
  CHECK(g.int_var("sexperiences", 1) == 1);
  CHECK(g.int_var("sexperiences", 2) == 0);
  CHECK(g.int_var("sexperiences", 3) == 0);
  CHECK(g.int_var("traumas", 0) == 0);
  CHECK(g.int_var("traumas", 1) == 0);
  CHECK(g.int_var("traumas", 2) == 1);
  CHECK(g.int_var("traumas", 3) == 1);
}

TEST_CASE("molestation ENDING OF THE ROUND: remaining role cards go to the trash and all cards are dealt anew",
          "[molestation][scenario]") {
  Game g = start_molestation(base_deal());
  last_session_with_memories(g, {});
  play_first_moves_until(g, [](const Game& x) { return x.state.rounds == 2; });
  for (int p = 0; p < 4; ++p) {
    CHECK(count_in(g, "role", p) == 1);
    CHECK(count_in(g, "memories", p) == 0);
    CHECK(count_in(g, "covered", p) == 0);
  }
  CHECK(count_in(g, "trash") == 0);
  CHECK(count_in(g, "role_deck") == 14);
}

TEST_CASE("molestation SCORING: sexperiences and traumas add to cumulative scores", "[molestation][scenario]") {
  Game g = start_molestation(base_deal());
  last_session_with_memories(g, {Strings{"KD", "KH"}, Strings{"JC"}, Strings{}, Strings{}});
  play_first_moves_until(g, [](const Game& x) { return x.state.rounds == 2; });
  CHECK(g.int_var("sexperiences", 0) == 2);
  CHECK(g.int_var("traumas", 1) == 1);
  last_session_with_memories(g, {Strings{"AD"}, Strings{"KS", "AS"}, Strings{}, Strings{}});
  play_first_moves_until(g, [](const Game& x) { return x.state.rounds == 3; });
  CHECK(g.int_var("sexperiences", 0) == 3);
  CHECK(g.int_var("traumas", 1) == 3);
  const auto scores = g.machine->scores(g.state);
  CHECK(scores.at(0).at(0).value == 3);  // score sexperience(p)
  CHECK(scores.at(1).at(1).value == 3);  // score trauma(p)
}

TEST_CASE("molestation SCORING: a sex maniac (6 sexperiences) ends the game and wins", "[molestation][scenario]") {
  Game g = start_molestation(base_deal());
  last_session_with_memories(g, {Strings{}, Strings{}, reds(6), Strings{}});
  play_first_moves_until(g, [](const Game&) { return false; });
  CHECK(g.state.finished);
  CHECK_FALSE(g.state.fault);
  CHECK(g.state.winners == std::vector<int>{2});
  CHECK(g.state.rounds == 1);
}

TEST_CASE("molestation SCORING: when all other players are insane (5 traumas), the only sane one wins",
          "[molestation][scenario]") {
  Game g = start_molestation(base_deal());
  last_session_with_memories(g, {blacks(5, 0), blacks(5, 5), Strings{}, blacks(5, 10)});
  play_first_moves_until(g, [](const Game&) { return false; });
  CHECK(g.state.finished);
  CHECK(g.state.winners == std::vector<int>{2});
}

TEST_CASE("molestation SCORING: when everyone goes insane at once there is no sane one to win", "[molestation][scenario]") {
  Game g = start_molestation(base_deal());
  Strings fourth = blacks(3, 12);
  fourth.push_back("JK2");
  fourth.push_back("10S");
  last_session_with_memories(g, {blacks(5, 0), blacks(5, 5), fourth, Strings{"2S", "3S", "4S", "5S", "8S"}});
  play_first_moves_until(g, [](const Game&) { return false; });
  CHECK(g.state.finished);
  CHECK_FALSE(g.state.fault);
  CHECK(g.state.winners.empty());
}

TEST_CASE("molestation SCORING: an insane player is replaced by an air dummy", "[molestation][scenario]") {
  Game g = start_molestation(base_deal());
  last_session_with_memories(g, {blacks(5, 0), blacks(5, 5), Strings{}, Strings{}});
  play_first_moves_until(g, [](const Game& x) { return x.state.rounds == 2; });
  CHECK_FALSE(g.state.finished);
  CHECK(g.var("automated", 0) == "true");
  CHECK(g.var("automated", 1) == "true");
  CHECK(g.var("insane", 0) == "true");
  CHECK(g.var("automated", 2) == "false");
  // In the new round the insane players' seats play as dummies, from 9-card piles.
  CHECK(count_in(g, "dummy_pile", 0) + count_in(g, "talk", 0) == 9);
  CHECK(count_in(g, "hand", 0) == 0);
}

// ---- LESS THAN 4 PLAYERS: AIR DUMMIES, and the dealer ---------------------------------------

TEST_CASE("molestation AIR DUMMIES: with 2 players the two dummies sit opposite each other", "[molestation][scenario]") {
  MolestationDeal d = base_deal();
  d.hands[1] = {"2C", "3C", "4C", "5C", "6C", "7C", "9C", "10C", "2H"};
  d.hands[3] = {"9D", "4D", "5D", "6D", "7D", "8D", "10D", "3H", "4H"};
  const Game g = start_molestation(d, 2);
  CHECK(g.var("automated", at_seat(g, 1)) == "true");
  CHECK(g.var("automated", at_seat(g, 3)) == "true");
  CHECK(g.var("automated", at_seat(g, 0)) == "false");
  CHECK(g.var("automated", at_seat(g, 2)) == "false");
}

TEST_CASE("molestation AIR DUMMIES: a dummy gets 9 cards in a pile and plays its top card", "[molestation][scenario]") {
  MolestationDeal d = base_deal();
  d.hands[1] = {"2C", "3C", "4C", "5C", "6C", "7C", "9C", "10C", "2H"};
  d.hands[3] = {"9D", "4D", "5D", "6D", "7D", "8D", "10D", "3H", "4H"};
  const Game g = start_molestation(d, 2);
  const int dummy = at_seat(g, 1);
  // The dummy in seat 1 leads the first chat: it has played its top card already.
  CHECK(g.zone("talk", dummy) == Strings{"2C"});
  CHECK(count_in(g, "dummy_pile", dummy) == 8);
  CHECK(g.zone("dummy_pile", dummy).back() == "3C");
  CHECK(seat_to_move(g) == 2);
}

TEST_CASE("molestation AIR DUMMIES: a dummy takes the first victim counter-clockwise, never desexes, gives its role",
          "[molestation][scenario]") {
  MolestationDeal d = base_deal();
  d.roles = {"QD", "JC", "QS", "KH"};  // the dummy in seat 1 (a jack) can molest seat 0 or seat 2
  d.hands[1] = {"2C", "3C", "4C", "5C", "6C", "7C", "9C", "10C", "2H"};
  d.hands[3] = {"9D", "4D", "5D", "6D", "7D", "8D", "10D", "3H", "4H"};
  Game g = start_molestation(d, 2);
  const int dummy = at_seat(g, 1);
  chat(g, {"10H", "8C"});  // seat 2, then seat 0 (the dummies play 2C and 9D)
  // Seat 0 is the first seat counter-clockwise (to the right) of seat 1.
  CHECK(g.zone("memories", dummy) == Strings{"QD"});
  CHECK(face_up(g, "QD"));
  CHECK(g.zone("role", at_seat(g, 0)) == Strings{"JC"});  // given away, as a black hunter
  CHECK(g.zone("role", dummy) == Strings{"QH"});
}

TEST_CASE("molestation AIR DUMMIES: the dummy's pile is refilled by 6 cards at the intermission", "[molestation][scenario]") {
  MolestationDeal d = base_deal();
  d.hands[1] = {"2C", "3C", "4C", "5C", "6C", "7C", "9C", "10C", "2H"};
  d.hands[3] = {"9D", "4D", "5D", "6D", "7D", "8D", "10D", "3H", "4H"};
  Game g = start_molestation(d, 2);
  play_first_moves_until(g, [](const Game& x) { return x.int_var("session") == 7; });
  for (const int seat : {1, 3}) {
    const int dummy = at_seat(g, seat);
    CHECK(count_in(g, "dummy_pile", dummy) + count_in(g, "talk", dummy) == 9);
  }
  CHECK(count_in(g, "social_deck") == 12);  // 24 played cards, 12 of them to the dummies
}

TEST_CASE("molestation AIR DUMMIES: one dummy is passed one seat counter-clockwise after each round",
          "[molestation][scenario]") {
  MolestationDeal d = base_deal();
  d.hands[3] = {"4D", "5D", "6D", "7D", "8D", "10D", "3H", "4H", "6H"};
  Game g = start_molestation(d, 3);
  CHECK(g.state.seat_of[3] == 3);
  play_first_moves_until(g, [](const Game& x) { return x.state.rounds == 2; });
  REQUIRE_FALSE(g.state.finished);
  CHECK(g.state.seat_of[3] == 2);
  CHECK(g.state.seat_of[2] == 3);
}

TEST_CASE("molestation: the dealer's job is passed one human player clockwise after each round",
          "[molestation][scenario]") {
  Game g = start_molestation(base_deal());
  CHECK(g.var("dealer") == "player 0");
  play_first_moves_until(g, [](const Game& x) { return x.state.rounds == 2; });
  REQUIRE_FALSE(g.state.finished);
  CHECK(g.var("dealer") == "player 1");
  CHECK(seat_to_move(g) == 2);  // the player on the new dealer's left starts the round
}

// ---- variants: the other readings ---------------------------------------------------------

TEST_CASE("molestation variant leader-rotates: the lead passes clockwise instead of to the dirtiest talker",
          "[molestation][variant]") {
  Game g = start_molestation(base_deal(), 4, "rulesets/variants/molestation-leader-rotates.rules");
  chat(g, {"2C", "10H", "9S", "8C"});
  g.choose("player 2");
  g.choose("take");
  g.choose("keep");
  CHECK(seat_to_move(g) == 2);  // the base ruleset would give the lead to seat 1
}

TEST_CASE("molestation variant escape-humans-only: an air dummy does not make an escape acceptable",
          "[molestation][variant]") {
  MolestationDeal d = base_deal();
  d.roles = {"KS", "JC", "KD", "AH"};  // the only ace sits in seat 3, a dummy in a 3-player game
  d.hands[3] = {"4D", "5D", "6D", "7D", "8D", "10D", "3H", "4H", "6H"};
  Game base = start_molestation(d, 3);
  chat(base, {"2C", "6S", "8C"});
  CHECK(base.zone("covered", 1) == Strings{"JC"});  // acceptable: the dummy's ace was around
  Game variant = start_molestation(d, 3, "rulesets/variants/molestation-escape-humans-only.rules");
  chat(variant, {"2C", "6S", "8C"});
  CHECK(variant.zone("memories", 1) == Strings{"JC"});  // shameful: no human molestator
}

TEST_CASE("molestation variant literal: the last session takes a role from the empty role deck and faults",
          "[molestation][variant]") {
  Game g = start_molestation(base_deal(), 4, "rulesets/variants/molestation-literal.rules");
  play_first_moves_until(g, [](const Game&) { return false; }, true);
  REQUIRE(g.state.fault);
  CHECK(g.fault_rule() == "turn_next_role");
  CHECK(g.int_var("session") == 15);
}

TEST_CASE("molestation variant cancel-adjacent: a desex card cancels only the red card directly beneath it",
          "[molestation][variant]") {
  const std::array<Strings, 4> memories{Strings{"KD", "KC", "AC*"}, Strings{}, Strings{}, Strings{}};
  Game base = start_molestation(base_deal());
  last_session_with_memories(base, memories);
  play_first_moves_until(base, [](const Game& x) { return x.state.rounds == 2; });
  CHECK(base.int_var("sexperiences", 0) == 0);  // AC* cancels KD, past the black KC
  Game variant = start_molestation(base_deal(), 4, "rulesets/variants/molestation-cancel-adjacent.rules");
  last_session_with_memories(variant, memories);
  play_first_moves_until(variant, [](const Game& x) { return x.state.rounds == 2; });
  CHECK(variant.int_var("sexperiences", 0) == 1);  // KC lies between: KD stays
  CHECK(variant.int_var("traumas", 0) == 1);
}

}  // namespace rulesets_molestation_test
