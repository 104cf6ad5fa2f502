// The shape of the invariant candidates: which dimensions keep one range across the stages
// of a walk over the players, and the card classes a filter splits the deck by.
#include <algorithm>
#include <string>

#include <catch2/catch.hpp>

#include "blocks.hpp"
#include "interpreter/game_fixture.hpp"
#include "invariants.hpp"
#include "rulebook/verifier/verify.hpp"
#include "sampler.hpp"

namespace ri = rulebook::interpreter;
namespace rv = rulebook::verifier;

namespace verifier_invariants_test {  // this file's own names (unity builds put several files in one)
namespace {

// The index of a layout dimension by name; fails the test when there is none.
std::size_t dim(const rv::Layout& layout, const std::string& name) {
  const auto it = std::find(layout.names.begin(), layout.names.end(), name);
  REQUIRE(it != layout.names.end());
  return static_cast<std::size_t>(it - layout.names.begin());
}

// What the verifier builds for a ruleset at a player count: its setting, slot kinds, card
// classes and layout.
struct Abstraction {
  ri::State initial;
  rv::Setting setting;
  rv::SlotKinds kinds;
  rv::CardClasses classes;
  rv::Layout layout;
};

Abstraction abstraction_of(const ri::Machine& machine, int players) {
  ri::GameConfig config;
  config.players = players;
  Abstraction a;
  a.initial = machine.start(config);
  a.setting = rv::Setting{a.initial.num_players, a.initial.num_seats, a.initial.options, *a.initial.cards};
  a.kinds = rv::slot_kinds(machine.ir());
  a.classes = rv::card_classes(machine.ir(), a.setting);
  a.layout = rv::make_layout(machine.ir(), a.setting, a.classes, a.kinds);
  return a;
}

const rv::Finding& finding(const rv::VerifyReport& report, const std::string& property) {
  const auto it = std::find_if(report.findings.begin(), report.findings.end(),
                               [&](const rv::Finding& f) { return f.property == property; });
  REQUIRE(it != report.findings.end());
  return *it;
}

}  // namespace

TEST_CASE("invariants: a walk over the players keeps one range for the piles it leaves alone") {
  const auto machine = rulebook::test::machine_for(R"(game "Walk"
players 3
cards { chip: 9 }
zone deck: pile hidden
zone discard: pile public
zone hand(p): set owner
setup { move box to deck }
round {
  rule hand_out: for each p in players { deal 1 from deck to hand(p) }
  rule collect: for each p in players { move hand(p) to discard }
  rule stop: if empty(deck) { end game winners players }
}
)");
  const ri::Ir& ir = machine->ir();
  const Abstraction a = abstraction_of(*machine, 3);
  const rv::Layout& layout = a.layout;
  z3::context z3;
  rv::Encoder encoder(z3, ir, a.setting, a.classes, layout, a.kinds);
  rv::Invariants invariants(encoder, layout, rv::cut_points(ir));

  // The head of each walk: the kForNext a jump goes back to; the deal walk comes first.
  std::vector<std::int32_t> heads;
  for (std::size_t pc = 0; pc < ir.code.size(); ++pc) {
    const ri::Instr& in = ir.code[pc];
    if (in.code == ri::OpCode::kJump && in.target <= static_cast<std::int32_t>(pc) &&
        ir.code[static_cast<std::size_t>(in.target)].code == ri::OpCode::kForNext) {
      heads.push_back(in.target);
    }
  }
  REQUIRE(heads.size() == 2);
  const std::vector<bool>& deal = invariants.at(heads[0]).shared;
  const std::vector<bool>& collect = invariants.at(heads[1]).shared;
  REQUIRE(deal.size() == static_cast<std::size_t>(layout.size()));
  REQUIRE(collect.size() == static_cast<std::size_t>(layout.size()));
  // Dealing changes the deck and the hand of the player visited (any player, as far as one
  // instruction is concerned), and leaves the discard pile alone; collecting the other way.
  CHECK(deal[dim(layout, "count(discard)")]);
  CHECK_FALSE(deal[dim(layout, "count(deck)")]);
  CHECK_FALSE(collect[dim(layout, "count(discard)")]);
  CHECK(collect[dim(layout, "count(deck)")]);
  for (int p = 0; p < 3; ++p) {
    CHECK_FALSE(deal[dim(layout, "count(hand(" + std::to_string(p) + "))")]);
    CHECK_FALSE(collect[dim(layout, "count(hand(" + std::to_string(p) + "))")]);
  }
  // Outside a walk there are no stages: the start shares nothing.
  CHECK(invariants.at(0).shared.empty());
}

TEST_CASE("invariants: a filter that defines the card classes moves exactly its class, even by rank") {
  // The first filter reads the rank, which differs within each class: only because the
  // filter itself is constant on a class is the deck known to hold 36 cards, all of which
  // the deal needs.
  const auto machine = rulebook::test::machine_for(R"(game "Numbers"
players 2
cards { standard52 }
zone deck: pile hidden
zone faces: pile hidden
zone hand(p): set owner
setup {
  rule build: move {c in box where kind(c) == standard and rank(c) <= 10} to deck
  move box to faces
  rule hands: for each p in players { deal 18 from deck to hand(p) }
}
round {
  rule stop: if empty(deck) { end game winners players }
}
)");
  rv::VerifyOptions options;
  options.games = 20;
  options.properties = {"conservation"};
  const rv::VerifyReport report = rv::verify(*machine, options);
  const rv::Finding& f = finding(report, "conservation");
  INFO(f.message);
  CHECK(f.status == rv::Status::kProved);
}

TEST_CASE("invariants: the affine hull of sampled states keeps exactly the equalities they share") {
  // Three states of a 4-card game split between two piles, with a third zone always holding
  // one card: "pile a + pile b = 4" and "zone c = 1" are the facts to find.
  rv::AffineHull hull(3);
  CHECK(hull.add({0, 4, 1}));
  CHECK(hull.add({1, 3, 1}));
  CHECK_FALSE(hull.add({4, 0, 1}));  // on the line already
  CHECK(hull.rank() == 1);
  auto holds = [](const rv::LinearFact& f, const std::vector<std::int64_t>& x) {
    std::int64_t sum = 0;
    for (const auto& [i, c] : f.terms) sum += c * x[static_cast<std::size_t>(i)];
    return sum == f.constant;
  };
  std::vector<rv::LinearFact> facts = hull.equalities();
  REQUIRE(facts.size() == 2);
  auto all_hold = [&](const std::vector<std::int64_t>& x) {
    return std::all_of(facts.begin(), facts.end(), [&](const rv::LinearFact& f) { return holds(f, x); });
  };
  CHECK(all_hold({2, 2, 1}));        // another state of the same kind
  CHECK_FALSE(all_hold({2, 3, 1}));  // a card created
  CHECK_FALSE(all_hold({2, 2, 0}));  // the third zone emptied
  // A state off the line: only "zone c = 1" is left.
  CHECK(hull.add({1, 1, 1}));
  facts = hull.equalities();
  REQUIRE(facts.size() == 1);
  CHECK(holds(facts[0], {7, 0, 1}));
  CHECK_FALSE(holds(facts[0], {0, 0, 2}));
}

TEST_CASE("invariants: a state that breaks two equalities keeps what they state together") {
  // docs/verification.md, "How it works": past 24 joins at one position, the equalities a
  // state breaks are combined instead of dropped. A deck (x0) of 16 and hands and discards
  // (x1 + x2) of 24 are two equalities of the samples; a state with 15 in the deck and 25
  // elsewhere breaks both, and the 40 cards in all must survive.
  auto holds = [](const rv::LinearFact& f, const std::vector<std::int64_t>& x) {
    std::int64_t sum = 0;
    for (const auto& [i, c] : f.terms) sum += c * x[static_cast<std::size_t>(i)];
    return sum == f.constant;
  };
  const rv::LinearFact deck{{{0, 1}}, 16, true};
  const rv::LinearFact rest{{{1, 1}, {2, 1}}, 24, true};
  const rv::LinearFact third{{{3, 1}}, 1, true};  // a zone that holds one card throughout
  const std::vector<std::int64_t> state{15, 20, 5, 1};
  const std::vector<rv::LinearFact> kept = rv::join_equalities({deck, rest, third}, state);
  REQUIRE(kept.size() == 2);  // the one still true, and one combination of the two broken
  for (const rv::LinearFact& f : kept) CHECK(holds(f, state));
  auto all_hold = [&](const std::vector<std::int64_t>& x) {
    return std::all_of(kept.begin(), kept.end(), [&](const rv::LinearFact& f) { return holds(f, x); });
  };
  CHECK(all_hold({0, 30, 10, 1}));       // any split of the 40 cards
  CHECK_FALSE(all_hold({15, 20, 4, 1}));  // a card lost
  CHECK_FALSE(all_hold({15, 20, 5, 0}));  // the third zone emptied
  // A state that breaks one equality only drops it: nothing to combine it with.
  const std::vector<rv::LinearFact> one = rv::join_equalities({deck, third}, {15, 20, 5, 1});
  REQUIRE(one.size() == 1);
  CHECK(holds(one[0], {0, 0, 0, 1}));
  CHECK_FALSE(holds(one[0], {16, 0, 0, 2}));
}

TEST_CASE("invariants: seats that move stay a permutation of the players, so a walk round the table ends") {
  // The players move one seat round the table every round; the walk goes clockwise from
  // seat 0. That it visits every player once, and so ends and finds a card for each, holds
  // only because no two players ever share a seat, which no range or affine fact over the
  // seats says.
  const auto machine = rulebook::test::machine_for(R"(game "Rotate"
players 3
cards { chip: 3 }
zone deck: pile hidden
zone hand(p): set owner
var rounds: int = 0
setup { move box to deck }
round {
  rule hand_out: for each p in players clockwise from seat 0 { deal 1 from deck to hand(p) }
  rule gather: for each p in players { move hand(p) to deck }
  rule rotate: swap seats seat 0 and seat 1
  swap seats seat 1 and seat 2
  add 1 to rounds
  rule stop: if rounds >= 4 { end game winners players }
}
)");
  rv::VerifyOptions options;
  options.games = 20;
  options.properties = {"conservation", "round-termination"};
  const rv::VerifyReport report = rv::verify(*machine, options);
  for (const rv::Finding& f : report.findings) {
    INFO(f.property << " " << f.subject << ": " << f.message);
    CHECK(f.status == rv::Status::kProved);
  }
  CHECK(report.findings.size() >= 3);  // conservation and the two walks
}

TEST_CASE("invariants: a zone's count over all card classes is a dimension defined by the classes' counts") {
  // Two kinds make two classes: count(slot) is their sum, defined by the classes' counts.
  const auto machine = rulebook::test::machine_for(R"(game "Shapes"
players 2
cards {
  ruby: 3
  coal: 3
}
zone deck: pile hidden
zone slot: pile public
setup { move box to deck }
round {
  rule sort: move {c in deck where kind(c) == ruby} to slot
  move slot to deck
  end game winners players
}
)");
  const ri::Ir& ir = machine->ir();
  const Abstraction a = abstraction_of(*machine, 2);
  REQUIRE(a.classes.count() == 2);
  const rv::Layout& layout = a.layout;
  const std::size_t total = dim(layout, "count(slot)");
  CHECK(static_cast<std::int32_t>(total) >= layout.base_size);
  const rv::Derived& d = layout.derived[total - static_cast<std::size_t>(layout.base_size)];
  CHECK(d.player_dim == -1);
  // The projection of a state with cards of both classes in the slot counts them all.
  ri::State s = a.initial;
  const auto slot = static_cast<std::size_t>(d.instance);
  for (std::size_t i = 0; i < s.zones.size(); ++i) {
    if (i == slot) continue;
    s.zones[slot].insert(s.zones[slot].end(), s.zones[i].begin(), s.zones[i].end());
    s.zones[i].clear();
  }
  REQUIRE(s.zones[slot].size() == 6);
  const std::vector<std::int64_t> x = rv::project(ir, layout, a.classes, s);
  std::int64_t sum = 0;
  for (std::int32_t k = 0; k < layout.classes; ++k) {
    const std::int64_t n = x[static_cast<std::size_t>(layout.count_index(d.instance, k))];
    CHECK(n == 3);
    sum += n;
  }
  CHECK(sum == 6);
  CHECK(x[total] == sum);
}

}  // namespace verifier_invariants_test
