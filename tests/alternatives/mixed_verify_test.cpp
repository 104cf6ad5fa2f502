// The verifier's encoding of a decision with alternatives (verifier/src/symbolic_instr.cpp,
// kChooseMixed): the soundness oracle allows every step the interpreter takes from one, the
// element an alternative binds is not live around the decision, and the properties that rest
// on the encoding are decided: a defect only a rarely legal alternative reaches is refuted by
// a counterexample that replays, its fixed twin is proved (both were unknown before).
#include <algorithm>
#include <string>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "interpreter/game_fixture.hpp"
#include "liveness.hpp"
#include "oracle.hpp"
#include "rulebook/logs/replay.hpp"
#include "rulebook/verifier/verify.hpp"
#include "support.hpp"
#include "verifier/quick_verify.hpp"

namespace ri = rulebook::interpreter;
namespace rv = rulebook::verifier;

namespace alternatives_mixed_verify_test {  // this file's own names (unity builds put several files in one)
namespace {

rv::Status verdict(const std::string& file, const std::string& property, std::string* log = nullptr) {
  const auto machine = rulebook::test::machine_for_file(file);
  const rv::VerifyReport report = rv::verify(*machine, rulebook::test::quick_options(property));
  REQUIRE(!report.findings.empty());
  rv::Status status = rv::Status::kProved;
  for (const rv::Finding& f : report.findings) {
    UNSCOPED_INFO(fmt::format("{}: {} {}: {}", file, rv::status_name(f.status), f.subject, f.message));
    if (f.status == rv::Status::kRefuted) {
      status = rv::Status::kRefuted;
      if (log != nullptr && f.counterexample) *log = f.counterexample->log;
    }
    if (f.status == rv::Status::kUnknown && status == rv::Status::kProved) status = rv::Status::kUnknown;
  }
  return status;
}

bool replays(const std::string& file, const std::string& log) {
  const auto machine = rulebook::test::machine_for_file(file);
  rulebook::grammar::SourceManager sources;
  const auto id = sources.add("counterexample.jsonl", log);
  ri::ReplayOptions options;
  options.partial = true;
  return ri::replay(*machine, sources, id, options).outcome != ri::ReplayOutcome::kIllegal;
}

}  // namespace

TEST_CASE("mixedverify: the element of an alternative is not live before its decision", "[alternatives][verifier]") {
  // The guard `suit(c) == led` reads c, which the decision binds: before the fix c counted as
  // read there, so it was live at the enclosing loop head and the oracle compared a value the
  // interpreter leaves behind (the last card it tried) with the encoding's.
  const auto machine = rulebook::test::machine_for_file("tests/golden/fmt/alternatives.rules");
  const rulebook::ir::Ir& ir = machine->ir();
  const auto live = rv::live_locals(ir);
  bool checked = false;
  for (std::size_t pc = 0; pc < ir.code.size(); ++pc) {
    if (ir.code[pc].code != rulebook::ir::OpCode::kChooseMixed) continue;
    for (const rulebook::ir::AlternativeInfo& a : ir.mixed_choices[static_cast<std::size_t>(ir.code[pc].b)].alternatives) {
      if (a.slot < 0) continue;
      INFO(fmt::format("alternative {} at pc {}", a.name, pc));
      CHECK(live[pc].count(a.slot) == 0);
      CHECK(live[pc + 1].count(a.slot) == 1);  // read in its block after the decision
      checked = true;
    }
  }
  CHECK(checked);
}

TEST_CASE("mixedverify: the oracle allows every step of the exact encoding", "[alternatives][verifier][oracle]") {
  rv::OracleOptions options;
  options.games = rulebook::test::games(30);
  options.per_cut = 4;
  options.mutations = 6;
  for (const char* file : {"tests/golden/fmt/alternatives.rules", "tests/alternatives/alternatives.rules",
                           "tests/verifier/corpus/95-alternative-rare-bonus.rules",
                           "tests/verifier/corpus/95-alternative-rare-bonus.fixed.rules",
                           "tests/verifier/corpus/96-alternative-rare-take.rules",
                           "tests/verifier/corpus/96-alternative-rare-take.fixed.rules",
                           "tests/verifier/corpus/97-alternative-rare-dead-end.rules",
                           "tests/verifier/corpus/97-alternative-rare-dead-end.fixed.rules"}) {
    const auto machine = rulebook::test::machine_for_file(file);
    ri::GameConfig config;
    config.players = 2;
    const rv::OracleReport report = rv::check_abstraction(*machine, config, options);
    INFO(fmt::format("{}: {} steps ({} from mutated states, {} faults)", file, report.steps, report.mutated, report.faults));
    CHECK(report.steps > 0);
    for (const std::string& f : report.failures) UNSCOPED_INFO(f);
    CHECK(report.failures.empty());
    for (const std::string& u : report.undecided) UNSCOPED_INFO("undecided: " + u);
    CHECK(report.undecided.empty());
  }
}

TEST_CASE("mixedverify: a rarely legal alternative's fault is refuted, its guarded twin proved", "[alternatives][verifier]") {
  std::string log;
  CHECK(verdict("tests/verifier/corpus/96-alternative-rare-take.rules", "conservation", &log) == rv::Status::kRefuted);
  CHECK(replays("tests/verifier/corpus/96-alternative-rare-take.rules", log));
  CHECK(verdict("tests/verifier/corpus/96-alternative-rare-take.fixed.rules", "conservation") == rv::Status::kProved);
}

TEST_CASE("mixedverify: no legal alternative in a rare state is refuted, the covered twin proved", "[alternatives][verifier]") {
  std::string log;
  CHECK(verdict("tests/verifier/corpus/97-alternative-rare-dead-end.rules", "playability", &log) == rv::Status::kRefuted);
  CHECK(replays("tests/verifier/corpus/97-alternative-rare-dead-end.rules", log));
  CHECK(log.find("\"alternative\":\"go\"") != std::string::npos);  // the log is written compact
  CHECK(verdict("tests/verifier/corpus/97-alternative-rare-dead-end.fixed.rules", "playability") == rv::Status::kProved);
}

}  // namespace alternatives_mixed_verify_test
