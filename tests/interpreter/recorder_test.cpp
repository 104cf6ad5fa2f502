// The Recorder (interpreter/src/recorder*.cpp) without a terminal: whole games of the shipped
// rulesets recorded by answering every question, whose logs replay and resume.
#include <chrono>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "rulebook/grammar/load.hpp"
#include "rulebook/ir/lower.hpp"
#include "rulebook/logs/recorder.hpp"
#include "rulebook/logs/replay.hpp"
#include "support.hpp"

namespace interpreter_recorder_test {  // this file's own names (unity builds put several files in one)
namespace {

namespace rg = rulebook::grammar;
namespace ri = rulebook::interpreter;

struct Rules {
  rg::SourceManager sources;
  std::shared_ptr<ri::Machine> machine;
};

std::shared_ptr<Rules> load(const std::string& relative) {
  auto r = std::make_shared<Rules>();
  rg::Diagnostics diagnostics;
  const auto result = rg::load_ruleset(rulebook::test::source_path(relative), r->sources, diagnostics);
  REQUIRE(result.status == rg::LoadStatus::kOk);
  r->machine = std::make_shared<ri::Machine>(ri::lower(*result.program, r->sources));
  return r;
}

ri::ReplayResult replayed(const Rules& rules, const std::string& log) {
  rg::SourceManager sources = rules.sources;
  const rg::FileId file = sources.add("recorded.jsonl", log);
  ri::ReplayOptions options;
  options.partial = true;
  return ri::replay(*rules.machine, sources, file, options);
}

// Answers every question: the `pick`-th legal choice (wrapping), the first cards it may be.
std::size_t record_all(ri::Recorder& recorder, std::size_t pick, std::size_t max_answers = 100000) {
  std::size_t answered = 0;
  while (recorder.question().kind != ri::Question::Kind::kOver && answered < max_answers) {
    const ri::Question& q = recorder.question();
    std::string answer;
    if (q.kind == ri::Question::Kind::kMove) {
      answer = q.options[(pick + answered) % q.options.size()];
    } else {
      REQUIRE(q.options.size() >= q.count);
      for (std::size_t i = 0; i < q.count; ++i) answer += q.options[(pick + i) % q.options.size()] + " ";
    }
    INFO(answer);
    REQUIRE(recorder.answer(answer).empty());
    ++answered;
  }
  return answered;
}

}  // namespace

TEST_CASE("record: whole shipped games are recorded, replay, and resume from any point", "[record]") {
  struct Case {
    std::string file;
    std::int64_t players;
    std::size_t max_answers;  // Clusterfk played this way goes on for thousands of moves: a part of it
  };
  for (const Case& c : {Case{"rulesets/molestation-game.rules", 2, 100000}, Case{"rulesets/molestation-game.rules", 4, 100000},
                        Case{"rulesets/clusterfk.rules", 4, 400}}) {
    const std::string& file = c.file;
    const std::int64_t players = c.players;
    INFO(file << " with " << players << " players");
    const auto rules = load(file);
    ri::RecordSetup setup;
    setup.players = players;
    ri::Recorder recorder(*rules->machine, rules->sources, setup);
    const auto begun = std::chrono::steady_clock::now();
    const std::size_t answers = record_all(recorder, 1, c.max_answers);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begun).count();
    INFO(fmt::format("{} players: {} answers in {:.2f} s", players, answers, seconds));
    const std::string log = recorder.log_text();
    const ri::ReplayResult whole = replayed(*rules, log);
    REQUIRE(whole.outcome == ri::ReplayOutcome::kOk);
    CHECK(whole.ended == (answers < c.max_answers));

    // Stopped after a third of the answers, the log resumes to the same place.
    ri::Recorder first(*rules->machine, rules->sources, setup);
    record_all(first, 1, answers / 3);
    const std::string partial = first.log_text();
    CHECK(replayed(*rules, partial).outcome == ri::ReplayOutcome::kOk);
    ri::Recorder second(*rules->machine, rules->sources, setup);
    REQUIRE(second.resume(partial).empty());
    CHECK(second.answers() == first.answers());
    CHECK(second.log_text() == partial);
    CHECK(second.question().kind == first.question().kind);
    CHECK(second.question().options == first.question().options);
  }
}

TEST_CASE("record: undo takes back the last answer, reveals included", "[record]") {
  const auto rules = load("tests/cli/data/record-high-card.rules");
  ri::RecordSetup setup;
  setup.names = {"Ann", "Bob"};
  ri::Recorder recorder(*rules->machine, rules->sources, setup);
  REQUIRE(recorder.question().kind == ri::Question::Kind::kReveal);
  CHECK(recorder.question().zone == "hand(Ann)");
  CHECK(recorder.question().count == 2);
  const std::string before = recorder.log_text();
  REQUIRE(recorder.answer("7h, 8C").empty());
  CHECK(recorder.question().zone == "hand(Bob)");
  CHECK(recorder.log_text().find("// seen hand(Ann): 7H 8C") != std::string::npos);
  CHECK(recorder.undo());
  CHECK(recorder.question().zone == "hand(Ann)");
  CHECK(recorder.log_text() == before);
  CHECK_FALSE(recorder.undo());
}

TEST_CASE("record: impossible answers are refused with the reason, and change nothing", "[record]") {
  const auto rules = load("tests/cli/data/record-high-card.rules");
  ri::RecordSetup setup;
  setup.names = {"Ann", "Bob"};
  ri::Recorder recorder(*rules->machine, rules->sources, setup);
  CHECK(recorder.answer("7H") == "2 cards came into hand(Ann): name all of them, not 1");
  CHECK(recorder.answer("7H 7H") == "7H is named twice");
  CHECK(recorder.answer("7H XY").rfind("no card 'XY' in this game", 0) == 0);
  REQUIRE(recorder.answer("7H 8C").empty());
  CHECK(recorder.answer("8C 2D") == "8C cannot be one of them: it has been seen already, and is in hand(Ann)");
  REQUIRE(recorder.answer("KS 2D").empty());
  REQUIRE(recorder.answer("9D").empty());
  REQUIRE(recorder.question().kind == ri::Question::Kind::kMove);
  CHECK(recorder.question().player == "Ann");
  CHECK(recorder.question().options == std::vector<std::string>{"8C", "7H"});
  const std::string illegal = recorder.answer("KS");
  CHECK(illegal.find("step 1: Ann may not choose KS in rule 'play_card'") != std::string::npos);
  CHECK(illegal.find("KS is in hand(Bob)") != std::string::npos);
  CHECK(recorder.answers() == 3);
  // A prefix of one legal choice is that choice.
  REQUIRE(recorder.answer("7").empty());
  CHECK(recorder.question().player == "Bob");
}

TEST_CASE("record: names must fit the table", "[record]") {
  const auto rules = load("tests/cli/data/record-high-card.rules");
  ri::RecordSetup setup;
  setup.names = {"Ann", "Bob", "Cy"};
  CHECK_THROWS_WITH(ri::Recorder(*rules->machine, rules->sources, setup),
                    "--names gives 3 names: give one per seat (2) or one per player (2)");
  setup.names = {"Ann", "2"};
  CHECK_THROWS_AS(ri::Recorder(*rules->machine, rules->sources, setup), ri::ConfigError);
}

TEST_CASE("record: an answer that would make a recorded decision illegal is refused", "[record]") {
  const auto rules = load("tests/cli/data/record-peek.rules");
  ri::Recorder recorder(*rules->machine, rules->sources, {});
  REQUIRE(recorder.question().kind == ri::Question::Kind::kMove);
  REQUIRE(recorder.answer("2").empty());  // legal with the stand-in on top of the deck (black)
  REQUIRE(recorder.question().kind == ri::Question::Kind::kReveal);
  CHECK(recorder.answer("AH") == "the recorded choice 2 is no longer legal: the rules depend on cards nobody has seen");
  CHECK(recorder.answers() == 1);
  REQUIRE(recorder.answer("AS").empty());
  CHECK(recorder.question().kind == ri::Question::Kind::kOver);
}

}  // namespace interpreter_recorder_test
