// Replay diagnostics: an illegal move says which condition of the rule rules it out, with the
// values of its names; oddities of hand-written logs are bad logs, not silently read one
// way; logs name their rule files without folders.
#include <algorithm>
#include <filesystem>

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "rulebook/grammar/load.hpp"
#include "rulebook/interpreter/agent.hpp"
#include "rulebook/logs/log.hpp"
#include "rulebook/ir/lower.hpp"
#include "rulebook/logs/replay.hpp"
#include "support.hpp"

namespace ri = rulebook::interpreter;
namespace rg = rulebook::grammar;
using nlohmann::json;

namespace interpreter_replay_diagnostics_test {  // this file's own names (unity builds put several files in one)
namespace {

// Two players follow a nominated suit with a high card, pick a mode that is not banned, and
// pass the turn to another player: a filter, a definition in it, a set difference and a
// comprehension, each of which can rule a move out.
const char* const kSuitsRules = R"(game "Suits"
players 2
cards { standard52 }
zone deck: pile hidden
zone hand(p): set owner
zone discard: pile public
enum mode { strict, loose }
option nominated: suit = hearts "the suit to follow"
var turn: player = seat 0
var banned: mode = loose
var plays: int = 0
def high(c: card): bool = rank(c) > 5 and suit(c) != clubs
def others(p: player): set of player = {q in players where q != p}
setup {
  move box to deck
  rule shuffle_deck: shuffle deck
  rule deal_hands: for each p in players { deal 5 from deck to hand(p) }
}
round {
  rule play: choose c in hand(turn) by turn where suit(c) == nominated and high(c)
  move c to discard
  rule pick_mode: choose m in {strict, loose} - {banned} by turn
  rule pass_to: choose q in others(turn) by turn
  set turn := q
  add 1 to plays
  rule stop: if plays >= 2 { end game winners players }
}
)";

// Ann is dealt the top five: 9H 2H KC 3S 7H; Bob the next five (QS among them).
const char* const kHeader = R"({"log":"rulebook","version":1,"players":2,"names":["Ann","Bob"]})";
const char* const kShuffle = R"({"shuffle":"deck","top":["9H","2H","KC","3S","7H","QS","4D","5D","6D","8D"]})";

struct Ruleset {
  std::string path;
  rg::SourceManager sources;
  std::shared_ptr<ri::Machine> machine;
};

std::shared_ptr<Ruleset> load_path(const std::string& path) {
  auto r = std::make_shared<Ruleset>();
  r->path = path;
  rg::Diagnostics diagnostics;
  const auto result = rg::load_ruleset(path, r->sources, diagnostics);
  REQUIRE(result.status == rg::LoadStatus::kOk);
  r->machine = std::make_shared<ri::Machine>(ri::lower(*result.program, r->sources));
  return r;
}

std::shared_ptr<Ruleset> suits() {
  const std::string path = rulebook::test::temp_folder() + "/suits.rules";
  rulebook::test::write_text(path, kSuitsRules);
  return load_path(path);
}

struct Replayed {
  ri::ReplayResult result;
  std::string rendered;
  [[nodiscard]] const rg::Diagnostic& error() const {
    const auto& items = result.diagnostics.items();
    const auto it = std::find_if(items.begin(), items.end(), [](const rg::Diagnostic& d) { return d.severity == rg::Severity::kError; });
    REQUIRE(it != items.end());
    return *it;
  }
  // The note whose message contains `text`.
  [[nodiscard]] const rg::DiagnosticNote* note(const std::string& text) const {
    for (const rg::DiagnosticNote& n : error().notes) {
      if (n.message.find(text) != std::string::npos) return &n;
    }
    return nullptr;
  }
};

Replayed replay_lines(const Ruleset& rules, const std::vector<std::string>& lines, ri::ReplayOptions options = {}) {
  rg::SourceManager sources = rules.sources;
  std::string text;
  for (const std::string& l : lines) text += l + "\n";
  const rg::FileId id = sources.add("game.jsonl", text);
  Replayed r{ri::replay(*rules.machine, sources, id, options), ""};
  for (const auto& d : r.result.diagnostics.items()) r.rendered += rg::render_text(d, sources, false);
  return r;
}

std::string move(const std::string& choice) { return fmt::format(R"({{"move":{{"player":"Ann","choice":{}}}}})", choice); }

// The note `text` points at line `line` of the rule file, at `quoted` there.
void require_note(const Replayed& r, const Ruleset& rules, const std::string& text, std::uint32_t line, const std::string& quoted) {
  INFO(r.rendered);
  const rg::DiagnosticNote* n = r.note(text);
  REQUIRE(n != nullptr);
  CHECK(n->span.line == line);
  CHECK(rules.sources.file(n->span.file).path == rules.path);
  CHECK(rules.sources.file(n->span.file).text.substr(n->span.begin, n->span.end - n->span.begin) == quoted);
}

}  // namespace

// ---- why a move is illegal -----------------------------------------------------------------

TEST_CASE("replaydiag: an illegal card names the false condition of the filter and the values of its names", "[replaydiag]") {
  const auto rules = suits();
  const Replayed r = replay_lines(*rules, {kHeader, kShuffle, move(R"("KC")")});
  REQUIRE(r.result.outcome == ri::ReplayOutcome::kIllegal);
  CHECK(r.error().code == rg::Code::kIllegalChoice);
  require_note(r, *rules, "`suit(c) == nominated` is false: c = KC, suit(c) = clubs, nominated = hearts", 20,
               "suit(c) == nominated");
  CHECK_THAT(r.rendered, Catch::Contains("legal here for Ann: 7H, 9H"));
}

TEST_CASE("replaydiag: a false call in the filter is followed into its definition", "[replaydiag]") {
  const auto rules = suits();
  const Replayed r = replay_lines(*rules, {kHeader, kShuffle, move(R"("2H")")});
  REQUIRE(r.result.outcome == ri::ReplayOutcome::kIllegal);
  require_note(r, *rules, "`high(c)` is false, with c = 2H", 20, "high(c)");
  require_note(r, *rules, "`rank(c) > 5` is false: c = 2H, rank(c) = 2", 12, "rank(c) > 5");
}

TEST_CASE("replaydiag: a card that is not in the chosen zone says where it is", "[replaydiag]") {
  const auto rules = suits();
  const Replayed r = replay_lines(*rules, {kHeader, kShuffle, move(R"("QS")")});
  REQUIRE(r.result.outcome == ri::ReplayOutcome::kIllegal);
  require_note(r, *rules, "QS is in hand(Bob), not in `hand(turn)`, which is hand(Ann)", 20, "hand(turn)");
}

TEST_CASE("replaydiag: a value a set difference leaves out, and a player a comprehension leaves out", "[replaydiag]") {
  const auto rules = suits();
  const Replayed mode = replay_lines(*rules, {kHeader, kShuffle, move(R"("9H")"), move(R"("loose")")});
  REQUIRE(mode.result.outcome == ri::ReplayOutcome::kIllegal);
  require_note(mode, *rules, "`{strict, loose} - {banned}` leaves out loose: it is in `{banned}` (banned = loose)", 22,
               "{strict, loose} - {banned}");

  const Replayed self = replay_lines(*rules, {kHeader, kShuffle, move(R"("9H")"), move(R"("strict")"), move(R"("Ann")")});
  REQUIRE(self.result.outcome == ri::ReplayOutcome::kIllegal);
  require_note(self, *rules, "Ann is not in `others(turn)` = [Bob], with p = Ann", 23, "others(turn)");
  require_note(self, *rules, "`q != p` is false: q = Ann, p = Ann", 13, "q != p");
}

TEST_CASE("replaydiag: Molestation: a victim the rules do not allow is explained through can_molest", "[replaydiag]") {
  const auto rules = load_path(rulebook::test::source_path("rulesets/molestation-game.rules"));
  // The example game, up to Ann's first choice of a victim, which is changed to Ann herself.
  std::vector<std::string> lines;
  std::string line;
  const std::string example = rulebook::test::read_text(rulebook::test::source_path("rulesets/examples/molestation-table-game.jsonl"));
  std::size_t begin = 0;
  bool changed = false;
  while (begin < example.size() && !changed) {
    const std::size_t end = example.find('\n', begin);
    line = example.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
    begin = end == std::string::npos ? example.size() : end + 1;
    if (line.find("choose_victim") != std::string::npos) {
      json j = json::parse(line);
      j["move"]["choice"] = j["move"]["player"];
      line = j.dump();
      changed = true;
    }
    lines.push_back(line);
  }
  REQUIRE(changed);
  const Replayed r = replay_lines(*rules, lines, ri::ReplayOptions{});
  INFO(r.rendered);
  REQUIRE(r.result.outcome == ri::ReplayOutcome::kIllegal);
  CHECK(r.note("is not in `victims(m)`") != nullptr);
  CHECK(r.note("`can_molest(m, v)` is false") != nullptr);
  CHECK(r.note("`m != v` is false") != nullptr);
}

TEST_CASE("replaydiag: Clusterfk: a set of targets a builtin does not give shows what the builtin was given", "[replaydiag]") {
  const auto rules = load_path(rulebook::test::source_path("rulesets/clusterfk.rules"));
  ri::GameConfig config;
  config.players = 4;
  config.seed = 2;
  ri::LogWriter writer(*rules->machine, config);
  ri::State state = rules->machine->start(config, &writer);
  ri::RandomAgent agent(config.seed);
  while (!state.finished) {
    rules->machine->apply(state, agent.choose(rules->machine->view(state, state.decision->player, ri::ViewDetail::kDecisionOnly)),
                          &writer);
  }
  // The first choice of targets, changed to every other player: one more than a gesture allows.
  std::vector<std::string> lines;
  const std::string& log = writer.text();
  bool changed = false;
  for (std::size_t begin = 0; begin < log.size() && !changed;) {
    const std::size_t end = log.find('\n', begin);
    std::string line = log.substr(begin, end - begin);
    begin = end + 1;
    if (line.find("choose_targets") != std::string::npos) {
      json j = json::parse(line);
      json others = json::array();
      for (int p = 0; p < 4; ++p) {
        if (p != j["move"]["player"].get<int>()) others.push_back(p);
      }
      j["move"]["choice"] = others;
      line = j.dump();
      changed = true;
    }
    lines.push_back(line);
  }
  REQUIRE(changed);
  const Replayed r = replay_lines(*rules, lines);
  INFO(r.rendered);
  REQUIRE(r.result.outcome == ri::ReplayOutcome::kIllegal);
  const rg::DiagnosticNote* n = r.note("is not in `subsets(players - {p}, 1, target_sizes(g))`");
  REQUIRE(n != nullptr);
  CHECK_THAT(n->message, Catch::Contains("players - {p} = ["));
  CHECK_THAT(n->message, Catch::Contains("target_sizes(g) = "));
}

// ---- oddities of hand-written logs ---------------------------------------------------------

TEST_CASE("replaydiag: \"players\": 3 with four names is a bad log unless \"seats\" says the fourth is a seat", "[replaydiag]") {
  const auto rules = load_path(rulebook::test::source_path("rulesets/molestation-game.rules"));
  ri::ReplayOptions partial;
  partial.partial = true;
  const std::string names = R"("names":["Ann","Bob","Cy","Dee"])";
  const Replayed four = replay_lines(*rules, {fmt::format(R"({{"log":"rulebook","version":1,"players":3,{}}})", names)}, partial);
  INFO(four.rendered);
  REQUIRE(four.result.outcome == ri::ReplayOutcome::kBadLog);
  CHECK(four.error().code == rg::Code::kMalformedLog);
  CHECK(four.error().span.line == 1);
  CHECK(four.error().span.column == 43);  // at "names"
  CHECK_THAT(four.error().message, Catch::Contains("\"names\" lists 4 names but \"players\" is 3"));

  const Replayed seats = replay_lines(*rules, {fmt::format(R"({{"log":"rulebook","version":1,"players":3,"seats":4,{}}})", names)}, partial);
  INFO(seats.rendered);
  REQUIRE(seats.result.outcome == ri::ReplayOutcome::kOk);
  CHECK(seats.result.seat_names == std::vector<std::string>{"Ann", "Bob", "Cy", "Dee"});

  // One name per player: the automated seat goes by its number.
  const Replayed three = replay_lines(*rules, {R"({"log":"rulebook","version":1,"players":3,"names":["Ann","Bob","Cy"]})"}, partial);
  INFO(three.rendered);
  REQUIRE(three.result.outcome == ri::ReplayOutcome::kOk);
  CHECK(three.result.seat_names == std::vector<std::string>{"Ann", "Bob", "Cy", "player 3"});
}

TEST_CASE("replaydiag: a shuffle line with both \"cards\" and \"top\" is a bad log", "[replaydiag]") {
  const auto rules = suits();
  const Replayed r = replay_lines(*rules, {kHeader, R"({"shuffle":"deck","cards":["2C"],"top":["9H"]})"});
  INFO(r.rendered);
  REQUIRE(r.result.outcome == ri::ReplayOutcome::kBadLog);
  CHECK(r.error().span.line == 2);
  CHECK_THAT(r.error().message, Catch::Contains("not both"));
}

TEST_CASE("replaydiag: a choice of the wrong type is a bad log, like an unknown name, an illegal one is a step", "[replaydiag]") {
  const auto rules = suits();
  const Replayed number = replay_lines(*rules, {kHeader, kShuffle, move(R"("9H")"), move("1")});
  INFO(number.rendered);
  REQUIRE(number.result.outcome == ri::ReplayOutcome::kBadLog);
  CHECK(number.error().code == rg::Code::kMalformedLog);
  CHECK_THAT(number.error().message, Catch::Contains("a value of mode by name (strict, loose) here, not 1"));
  const Replayed unknown = replay_lines(*rules, {kHeader, kShuffle, move(R"("9H")"), move(R"("lose")")});
  REQUIRE(unknown.result.outcome == ri::ReplayOutcome::kBadLog);
  const Replayed card_as_number = replay_lines(*rules, {kHeader, kShuffle, move("7")});
  REQUIRE(card_as_number.result.outcome == ri::ReplayOutcome::kBadLog);
  const Replayed bool_for_player = replay_lines(*rules, {kHeader, kShuffle, move(R"("9H")"), move(R"("strict")"), move("true")});
  REQUIRE(bool_for_player.result.outcome == ri::ReplayOutcome::kBadLog);
  const Replayed illegal = replay_lines(*rules, {kHeader, kShuffle, move(R"("9H")"), move(R"("loose")")});
  REQUIRE(illegal.result.outcome == ri::ReplayOutcome::kIllegal);
}

TEST_CASE("replaydiag: common card spellings get the card they mean", "[replaydiag]") {
  const auto rules = suits();
  for (const auto& [written, meant] : std::vector<std::pair<std::string, std::string>>{
           {"TC", "10C"}, {"Tc", "10C"}, {"10c", "10C"}, {"Qh", "QH"}, {"HQ", "QH"}, {"Q\u2665", "QH"}, {"ks", "KS"}}) {
    const Replayed r = replay_lines(*rules, {kHeader, fmt::format(R"({{"shuffle":"deck","top":["{}"]}})", written)});
    INFO(r.rendered);
    REQUIRE(r.result.outcome == ri::ReplayOutcome::kBadLog);
    CHECK_THAT(r.error().message, Catch::Contains(fmt::format("no card '{}' in this game (did you mean '{}'?)", written, meant)));
  }
}

// ---- rule files in logs --------------------------------------------------------------------

TEST_CASE("replaydiag: a log names its rule files without their folders, in the header and at a fault", "[replaydiag]") {
  const auto rules = suits();  // loaded by an absolute path
  REQUIRE(std::filesystem::path(rules->path).is_absolute());
  ri::GameConfig config;
  config.players = 2;
  config.seed = 3;
  ri::LogWriter writer(*rules->machine, config);
  const ri::State state = rules->machine->start(config, &writer);
  REQUIRE(state.fault);  // seed 3 deals Ann no high heart: rule 'play' has no legal choice
  const std::string& log = writer.text();
  const json header = json::parse(log.substr(0, log.find('\n')));
  CHECK(header["files"] == json::array({"suits.rules"}));
  CHECK(log.find(rules->path) == std::string::npos);
  CHECK(log.find("\"at\":\"suits.rules:20\"") != std::string::npos);

  // It replays, and so does an older log that names the file by its absolute path.
  const Replayed now = replay_lines(*rules, {log.substr(0, log.size() - 1)});
  std::string old = log;
  old.replace(old.find("\"suits.rules\""), 13, json(rules->path).dump());
  const Replayed before = replay_lines(*rules, {old.substr(0, old.size() - 1)});
  for (const Replayed* r : {&now, &before}) {
    INFO(r->rendered);
    CHECK(r->result.outcome == ri::ReplayOutcome::kFault);
    CHECK(r->result.diagnostics.warning_count() == 0);
  }
}

TEST_CASE("replaydiag: a rules hash that differs names the log's files in the warning", "[replaydiag]") {
  const auto rules = suits();
  ri::ReplayOptions partial;
  partial.partial = true;
  const Replayed r = replay_lines(*rules, {R"({"log":"rulebook","version":1,"players":2,"files":["suits.rules"],"hash":"00"})"},
                                  partial);
  INFO(r.rendered);
  CHECK_THAT(r.rendered, Catch::Contains("written for other rule files (suits.rules, hash 00, these rules"));
}

TEST_CASE("replaydiag: play and simulate write logs without the rule file's folder, and replay reads them", "[replaydiag][cli]") {
  const std::string dir = rulebook::test::temp_folder();
  rulebook::test::write_text(dir + "/suits.rules", kSuitsRules);
  const auto simulate = rulebook::test::run_rulebook(fmt::format("simulate '{}/suits.rules' --games 2 --seed 4 --logs '{}/logs'", dir, dir));
  INFO(simulate.err);
  std::size_t logs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir + "/logs")) {
    const std::string text = rulebook::test::read_text(entry.path().string());
    INFO(text);
    CHECK(json::parse(text.substr(0, text.find('\n')))["files"] == json::array({"suits.rules"}));
    CHECK(text.find(dir) == std::string::npos);
    const auto replay = rulebook::test::run_rulebook(fmt::format("replay '{}/suits.rules' '{}'", dir, entry.path().string()));
    INFO(replay.err);
    CHECK(replay.err.find("warning") == std::string::npos);
    ++logs;
  }
  CHECK(logs > 0);
  std::filesystem::remove_all(dir);
}

}  // namespace interpreter_replay_diagnostics_test
