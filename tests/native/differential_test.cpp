// The differential test: the hand-written games of bench/native/ against the rule files.
// The interpreter plays random games; the native game is then driven by what each game's
// log records (every shuffle's result, every move) and must offer the same legal moves at
// every decision, make the same policy decisions for automated seats, shuffle the same
// cards, and end with the same rounds, moves, scores and winners.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <sstream>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "native/native.hpp"
#include "rulebook/interpreter/agent.hpp"
#include "rulebook/logs/log.hpp"
#include "rulebook/interpreter/simulate.hpp"
#include "interpreter/game_fixture.hpp"
#include "support.hpp"

namespace ri = rulebook::interpreter;
namespace native = rulebook::native;

namespace native_differential_test {  // this file's own names (unity builds put several files in one)
namespace {

// Options and choices as integers, the way the native games hold them: a card by its id
// (both number the cards alike), a player, an enum ordinal, a bool, a set of players as a
// bit mask.
std::int64_t code(const ri::Value& v) {
  if (v.kind != ri::Kind::kSet) return v.scalar;
  std::int64_t mask = 0;
  for (const std::int64_t p : v.items) mask |= std::int64_t{1} << p;
  return mask;
}

// One game of the interpreter, as the events a log is written from (the LogWriter listens
// to the same callbacks): the result of every shuffle, and every decision with its legal
// options; then the end.
struct Event {
  enum Type { kShuffle, kMove, kPolicy };
  Type type = kShuffle;
  std::string zone;                  // kShuffle
  std::vector<std::int32_t> cards;   // kShuffle: the result, bottom to top
  std::int32_t player = -1;          // kMove, kPolicy
  std::string rule;
  std::int64_t choice = 0;
  std::vector<std::int64_t> legal;   // kMove: sorted
};
struct InterpreterGame {
  std::vector<Event> events;
  native::Result end;
};

class Recorder final : public ri::EventSink {
 public:
  Recorder(const ri::Machine& machine, InterpreterGame& game) : machine_(machine), game_(game) {}
  void shuffled(const ri::State& state, std::int32_t zone) override {
    Event e;
    e.type = Event::kShuffle;
    e.zone = machine_.zone_name(zone);
    for (const ri::CardId c : state.zones[static_cast<std::size_t>(zone)]) e.cards.push_back(c);
    game_.events.push_back(std::move(e));
  }
  void chose(const ri::State& /*state*/, ri::PlayerId player, std::int32_t rule, const ri::Value& choice,
             bool by_policy) override {
    if (!by_policy) return;  // a human's move is recorded with its options below
    Event e;
    e.type = Event::kPolicy;
    e.player = player;
    e.rule = rule >= 0 ? machine_.ir().labels[static_cast<std::size_t>(rule)] : "";
    e.choice = code(choice);
    game_.events.push_back(std::move(e));
  }

 private:
  const ri::Machine& machine_;
  InterpreterGame& game_;
};

InterpreterGame interpreter_game(const ri::Machine& machine, std::int64_t players, std::uint64_t seed) {
  ri::GameConfig config;
  config.players = players;
  config.seed = seed;
  InterpreterGame game;
  Recorder recorder(machine, game);
  ri::State state = machine.start(config, &recorder);
  ri::RandomAgent agent(ri::agent_seed(seed));
  while (!state.finished) {
    Event e;
    e.type = Event::kMove;
    e.player = state.decision->player;
    e.rule = state.decision->rule >= 0 ? machine.ir().labels[static_cast<std::size_t>(state.decision->rule)] : "";
    for (const ri::Value& v : machine.legal_moves(state)) e.legal.push_back(code(v));
    const ri::View view = machine.view(state, state.decision->player, agent.detail());
    const std::size_t index = agent.choose(view);
    e.choice = e.legal[index];
    std::sort(e.legal.begin(), e.legal.end());
    game.events.push_back(std::move(e));
    machine.apply(state, index, &recorder);
  }
  REQUIRE_FALSE(state.fault.has_value());
  for (const ri::PlayerId p : state.winners) game.end.winners.push_back(p);
  std::sort(game.end.winners.begin(), game.end.winners.end());
  for (const auto& row : machine.scores(state)) {
    std::vector<std::int64_t>& values = game.end.scores.emplace_back();
    for (const ri::ScoreValue& v : row) {
      REQUIRE_FALSE(v.faulted());  // the shipped rulesets' scores are defined at every end
      values.push_back(v.value);
    }
  }
  game.end.rounds = state.rounds;
  game.end.moves = state.moves;
  return game;
}

std::string codes_text(const native::Choice& choice, const std::vector<std::int64_t>& codes) {
  std::vector<std::string> out;
  for (const std::int64_t c : codes) out.push_back(native::option_json(choice, static_cast<std::int32_t>(c)));
  return fmt::format("{}", fmt::join(out, " "));
}

// Drives a native game with the interpreter's events, and records the first disagreement.
class EventDriver final : public native::Driver {
 public:
  explicit EventDriver(const InterpreterGame& game) : game_(game) {}

  void shuffle(std::string_view zone, std::vector<std::int32_t>& cards) override {
    const Event* e = next(Event::kShuffle, "shuffle");
    if (e == nullptr) return;
    if (e->zone != zone) return disagree(fmt::format("native shuffles {}, the interpreter {}", zone, e->zone));
    std::vector<std::int32_t> a = cards, b = e->cards;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    if (a != b) {
      return disagree(fmt::format("shuffle of {}: native holds {} cards, the interpreter {}, or other cards", zone,
                                  a.size(), b.size()));
    }
    cards = e->cards;
  }

  std::size_t choose(const native::Choice& choice) override {
    const std::size_t decision = decisions_++;
    const Event* e = next(Event::kMove, "decision");
    if (e == nullptr) return 0;
    const std::string where = fmt::format("decision {} ({} by player {})", decision, choice.rule, choice.player);
    if (e->rule != choice.rule || e->player != choice.player) {
      disagree(fmt::format("{}: the interpreter asks {} by player {}", where, e->rule, e->player));
      return 0;
    }
    std::vector<std::int64_t> legal(choice.options->begin(), choice.options->end());
    std::sort(legal.begin(), legal.end());
    if (legal != e->legal) {
      disagree(fmt::format("{}: native offers {}, the interpreter {}", where, codes_text(choice, legal),
                           codes_text(choice, e->legal)));
      return 0;
    }
    const auto at = std::find(choice.options->begin(), choice.options->end(), e->choice);
    return static_cast<std::size_t>(at - choice.options->begin());
  }

  void policy(const native::Choice& choice, std::size_t index) override {
    const Event* e = next(Event::kPolicy, "policy decision");
    if (e == nullptr) return;
    const std::int32_t made = (*choice.options)[index];
    if (e->rule != choice.rule || e->player != choice.player || e->choice != made) {
      disagree(fmt::format("policy of player {} in {}: native chooses {}, the interpreter {} in {} for player {}",
                           choice.player, choice.rule, native::option_json(choice, made),
                           native::option_json(choice, static_cast<std::int32_t>(e->choice)), e->rule, e->player));
    }
  }

  // After the native game ended: nothing left over, the same result.
  void finish(const native::Result& result) {
    if (!first_.empty()) return;
    if (at_ != game_.events.size()) return disagree(fmt::format("native ended with {} events left", game_.events.size() - at_));
    const native::Result& end = game_.end;
    if (result.winners != end.winners) {
      disagree(fmt::format("winners: native [{}], interpreter [{}]", fmt::join(result.winners, ","), fmt::join(end.winners, ",")));
    }
    if (result.scores != end.scores) disagree("the scores differ");
    if (result.rounds != end.rounds) disagree(fmt::format("rounds: native {}, interpreter {}", result.rounds, end.rounds));
    if (result.moves != end.moves) disagree(fmt::format("moves: native {}, interpreter {}", result.moves, end.moves));
  }

  [[nodiscard]] const std::string& disagreement() const { return first_; }

 private:
  const Event* next(Event::Type type, const char* what) {
    if (!first_.empty()) return nullptr;
    if (at_ >= game_.events.size()) {
      disagree(fmt::format("native makes a {} after the interpreter's game ended", what));
      return nullptr;
    }
    const Event& e = game_.events[at_++];
    if (e.type != type) {
      const char* names[] = {"shuffle", "decision", "policy decision"};
      disagree(fmt::format("native makes a {} where the interpreter makes a {} ({} {})", what, names[e.type], e.rule, e.zone));
      return nullptr;
    }
    return &e;
  }
  void disagree(std::string what) {
    if (first_.empty()) first_ = std::move(what);
  }

  const InterpreterGame& game_;
  std::size_t at_ = 0;
  std::size_t decisions_ = 0;
  std::string first_;
};

using NativeGame = std::function<native::Result(std::int32_t players, native::Driver&)>;

// Plays `games` games per player count and reports the first that disagrees (with its seed).
void compare(const char* rules, std::int64_t players, const NativeGame& play, std::uint64_t games) {
  const std::shared_ptr<ri::Machine> loaded = rulebook::test::machine_for_file(rules);
  const ri::Machine& machine = *loaded;
  for (std::uint64_t g = 0; g < games; ++g) {
    const std::uint64_t seed = ri::game_seed(1, g);
    const InterpreterGame game = interpreter_game(machine, players, seed);
    EventDriver driver(game);
    const native::Result result = play(static_cast<std::int32_t>(players), driver);
    driver.finish(result);
    INFO(fmt::format("{} players, seed {}", players, seed));
    REQUIRE(driver.disagreement() == "");
  }
}

}  // namespace

// Two test cases, so that the test runner can run them side by side: an 8-player game is
// about 16,000 moves.
TEST_CASE("native: Clusterf**k! agrees with the rule file on 1,000 games at 4 to 6 players", "[native][differential][long]") {
  const auto players = GENERATE(4, 5, 6);
  compare("rulesets/clusterfk.rules", players,
          [](std::int32_t n, native::Driver& d) { return native::play_clusterfk(n, d); }, static_cast<std::uint64_t>(rulebook::test::games(1000)));
}

TEST_CASE("native: Clusterf**k! agrees with the rule file on 1,000 games at 7 and 8 players", "[native][differential][long]") {
  const auto players = GENERATE(7, 8);
  compare("rulesets/clusterfk.rules", players,
          [](std::int32_t n, native::Driver& d) { return native::play_clusterfk(n, d); }, static_cast<std::uint64_t>(rulebook::test::games(1000, 2)));
}

TEST_CASE("native: Molestation Game agrees with the rule file on 1,000 games per player count", "[native][differential]") {
  const auto players = GENERATE(2, 3, 4);
  compare("rulesets/molestation-game.rules", players,
          [](std::int32_t n, native::Driver& d) { return native::play_molestation(n, d); }, static_cast<std::uint64_t>(rulebook::test::games(1000)));
}

namespace {
// Counts the decisions a native game asks for and reports, choosing at random.
class CountingDriver final : public native::Driver {
 public:
  explicit CountingDriver(std::uint64_t seed) : random_(seed) {}
  void shuffle(std::string_view zone, std::vector<std::int32_t>& cards) override { random_.shuffle(zone, cards); }
  std::size_t choose(const native::Choice& choice) override {
    ++asked;
    return random_.choose(choice);
  }
  void policy(const native::Choice& /*choice*/, std::size_t /*index*/) override { ++policies; }
  std::int64_t asked = 0;
  std::int64_t policies = 0;

 private:
  native::RandomDriver random_;
};
}  // namespace

// The one disagreement the differential test found: the native game counted only the
// decisions of humans as moves, the interpreter (and a log's `end` line) counts every one.
TEST_CASE("native: Molestation counts an air dummy's decisions as moves, as a log does", "[native]") {
  CountingDriver driver(ri::game_seed(1, 0));
  const native::Result result = native::play_molestation(2, driver);
  CHECK(driver.policies > 0);
  CHECK(result.moves == driver.asked + driver.policies);
}

namespace {
// Drives a native game from the text of a log, as `rulebook replay` reads one: each shuffle's
// result, each move and each policy decision in order, then the end line.
class LogDriver final : public native::Driver {
 public:
  LogDriver(const std::string& log, const std::vector<std::string>& card_names) : names_(card_names) {
    std::istringstream in(log);
    std::string line;
    while (std::getline(in, line)) {
      nlohmann::json e = nlohmann::json::parse(line);
      if (e.contains("shuffle") || e.contains("move") || e.contains("policy") || e.contains("end")) lines_.push_back(std::move(e));
    }
  }
  void shuffle(std::string_view zone, std::vector<std::int32_t>& cards) override {
    const nlohmann::json* e = next("shuffle");
    if (e == nullptr) return;
    std::vector<std::int32_t> result;
    for (const auto& name : (*e)["cards"]) {
      result.push_back(static_cast<std::int32_t>(std::find(names_.begin(), names_.end(), name.get<std::string>()) - names_.begin()));
    }
    std::vector<std::int32_t> a = cards, b = result;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    if ((*e)["shuffle"] != std::string(zone) || a != b) return disagree(fmt::format("shuffle of {}: the log has {}", zone, e->dump()));
    cards = result;
  }
  std::size_t choose(const native::Choice& choice) override {
    const nlohmann::json* e = next("move");
    if (e == nullptr) return 0;
    const nlohmann::json& move = (*e)["move"];
    for (std::size_t i = 0; i < choice.options->size(); ++i) {
      if (move["rule"] == std::string(choice.rule) && move["player"] == choice.player &&
          move["choice"].dump() == native::option_json(choice, (*choice.options)[i])) {
        return i;
      }
    }
    disagree(fmt::format("{} by player {}: the log's move {} is not among the native options", choice.rule, choice.player, e->dump()));
    return 0;
  }
  void policy(const native::Choice& choice, std::size_t index) override {
    const nlohmann::json* e = next("policy");
    if (e != nullptr && (*e)["policy"]["choice"].dump() != native::option_json(choice, (*choice.options)[index])) {
      disagree(fmt::format("{} by player {}: native's policy differs from the log's {}", choice.rule, choice.player, e->dump()));
    }
  }
  void finish(const native::Result& result) {
    const nlohmann::json* e = next("end");
    if (e == nullptr) return;
    const nlohmann::json& end = (*e)["end"];
    nlohmann::json scores = nlohmann::json::array();
    for (const auto& [name, values] : end["scores"].items()) scores.push_back(values);
    if (end["winners"] != nlohmann::json(result.winners) || end["rounds"] != result.rounds || end["moves"] != result.moves ||
        scores != nlohmann::json(result.scores)) {
      disagree(fmt::format("the end differs: the log has {}", end.dump()));
    }
  }
  [[nodiscard]] const std::string& disagreement() const { return first_; }

 private:
  const nlohmann::json* next(const char* kind) {
    if (!first_.empty()) return nullptr;
    if (at_ >= lines_.size() || !lines_[at_].contains(kind)) {
      disagree(fmt::format("native wants a {} line, the log has {}", kind, at_ < lines_.size() ? lines_[at_].dump() : "nothing"));
      return nullptr;
    }
    return &lines_[at_++];
  }
  void disagree(std::string what) {
    if (first_.empty()) first_ = std::move(what);
  }
  const std::vector<std::string>& names_;
  std::vector<nlohmann::json> lines_;
  std::size_t at_ = 0;
  std::string first_;
};

void compare_logs(const char* rules, std::int64_t players, const std::vector<std::string>& card_names, const NativeGame& play) {
  const std::shared_ptr<ri::Machine> machine = rulebook::test::machine_for_file(rules);
  for (std::uint64_t g = 0; g < static_cast<std::uint64_t>(rulebook::test::games(100)); ++g) {
    ri::GameConfig config;
    config.players = players;
    config.seed = ri::game_seed(1, g);
    ri::LogWriter writer(*machine, config);
    REQUIRE_FALSE(ri::play_random_game(*machine, config, 1'000'000, &writer).fault.has_value());
    LogDriver driver(writer.text(), card_names);
    driver.finish(play(static_cast<std::int32_t>(players), driver));
    INFO(fmt::format("{} players, seed {}", players, config.seed));
    REQUIRE(driver.disagreement() == "");
  }
}
}  // namespace

// The same comparison from the text of logs: what a log records is enough to drive a
// second implementation of the rules to the same end.
TEST_CASE("native: both games replay the interpreter's logs to the same end", "[native][differential]") {
  compare_logs("rulesets/clusterfk.rules", 4, native::clusterfk_cards(),
               [](std::int32_t n, native::Driver& d) { return native::play_clusterfk(n, d); });
  for (const std::int64_t players : {2, 4}) {
    compare_logs("rulesets/molestation-game.rules", players, native::molestation_cards(),
                 [](std::int32_t n, native::Driver& d) { return native::play_molestation(n, d); });
  }
}

}  // namespace native_differential_test
