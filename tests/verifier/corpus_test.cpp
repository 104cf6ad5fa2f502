// The rare-state corpus (tests/verifier/corpus/, see its README): small rule files whose
// defect, or whose only way to succeed, lies in a state random play almost never reaches.
// For each file of manifest.tsv: its witness log replays and shows what the manifest says;
// the verifier never answers `proved` where the truth is `fails` nor `refuted` where it is
// `holds`; a refutation's counterexample replays; and the answer is the expected one
// (the `expected` column; RULEBOOK_UPDATE_GOLDEN=1 rewrites it after a deliberate change,
// never past a wrong answer).
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "interpreter/game_fixture.hpp"
#include "rulebook/logs/replay.hpp"
#include "rulebook/verifier/verify.hpp"
#include "support.hpp"

namespace ri = rulebook::interpreter;
namespace rv = rulebook::verifier;
using rulebook::test::machine_for_file;

namespace verifier_corpus_test {  // this file's own names (unity builds put several files in one)
namespace {

const std::string kFolder = "tests/verifier/corpus/";

struct Entry {
  std::vector<std::string> cells;  // file, players, property, truth, witness, class, note, expected
  [[nodiscard]] const std::string& file() const { return cells[0]; }
  [[nodiscard]] std::int64_t players() const { return std::stoll(cells[1]); }
  [[nodiscard]] const std::string& property() const { return cells[2]; }
  [[nodiscard]] bool holds() const { return cells[3] == "holds"; }
  [[nodiscard]] const std::string& witness() const { return cells[4]; }
};

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream in(line);
  for (std::string cell; std::getline(in, cell, '\t');) out.push_back(cell);
  return out;
}

ri::ReplayResult replay_text(const ri::Machine& machine, const std::string& name, const std::string& log) {
  rulebook::grammar::SourceManager sources;
  const auto id = sources.add(name, log);
  ri::ReplayOptions options;
  options.partial = true;
  return ri::replay(machine, sources, id, options);
}

}  // namespace

TEST_CASE("corpus: no wrong proved or refuted on rare-state defects, and every witness replays", "[verifier][corpus][long]") {
  const std::string manifest_path = rulebook::test::source_path(kFolder + "manifest.tsv");
  std::ifstream manifest(manifest_path);
  REQUIRE(manifest);
  std::string header;
  std::getline(manifest, header);
  std::vector<Entry> entries;
  for (std::string line; std::getline(manifest, line);) {
    if (!line.empty()) entries.push_back(Entry{split(line)});
  }
  REQUIRE(entries.size() >= 80);
  const bool update = std::getenv("RULEBOOK_UPDATE_GOLDEN") != nullptr;
  std::int64_t decided = 0;
  std::int64_t checked = 0;
  std::map<std::string, std::size_t> seen_in_class;
  for (Entry& e : entries) {
    REQUIRE(e.cells.size() >= 7);
    // Under the sanitizers (RULEBOOK_TEST_DIVISOR) a sample: every class, a tenth of its files.
    if (!update && !rulebook::test::sampled(seen_in_class[e.cells[5]]++)) continue;
    ++checked;
    INFO(fmt::format("{} ({}, {} {}): {}", e.file(), e.cells[5], e.property(), e.cells[3], e.cells[6]));
    const auto machine = machine_for_file(kFolder + e.file());
    if (e.witness() != "-") {
      // The witness shows the truth: a fault replays as a fault; any other log is legal.
      const ri::ReplayResult r =
          replay_text(*machine, e.witness(), rulebook::test::read_text(rulebook::test::source_path(kFolder + e.witness())));
      CHECK(r.outcome != ri::ReplayOutcome::kIllegal);
      const bool fault_property = e.property() == "conservation" || e.property() == "playability" ||
                                  e.property() == "well-defined";
      if (fault_property && !e.holds()) CHECK(r.outcome == ri::ReplayOutcome::kFault);
    }
    rv::VerifyOptions options;
    options.players = e.players();
    options.properties = {e.property()};
    options.games = 60;
    options.timeout_seconds = 20;
    options.search_states = 20000;
    options.search_seconds = 5;
    const rv::VerifyReport report = rv::verify(*machine, options);
    REQUIRE(!report.findings.empty());
    for (const rv::Finding& f : report.findings) {
      INFO(fmt::format("{} {}: {}", rv::status_name(f.status), f.subject, f.message));
      if (e.holds()) {
        CHECK(f.status != rv::Status::kRefuted);
      } else {
        CHECK(f.status != rv::Status::kProved);
      }
      if (f.status == rv::Status::kRefuted && f.counterexample) {
        const ri::ReplayResult r = replay_text(*machine, "counterexample.jsonl", f.counterexample->log);
        CHECK(r.outcome != ri::ReplayOutcome::kIllegal);
      }
    }
    // The property's overall answer: refuted if any finding is, else unknown if any is.
    rv::Status status = rv::Status::kProved;
    for (const rv::Finding& f : report.findings) {
      if (f.status == rv::Status::kRefuted) status = rv::Status::kRefuted;
      if (f.status == rv::Status::kUnknown && status == rv::Status::kProved) status = rv::Status::kUnknown;
    }
    if (status != rv::Status::kUnknown) ++decided;
    const std::string answer = rv::status_name(status);
    if (update) {
      e.cells.resize(8);
      e.cells[7] = answer;
    } else {
      REQUIRE(e.cells.size() >= 8);
      CHECK(e.cells[7] == answer);
    }
  }
  if (update) {
    std::ofstream out(manifest_path);
    out << (header.find("\texpected") == std::string::npos ? header + "\texpected" : header) << '\n';
    for (const Entry& e : entries) out << fmt::format("{}\n", fmt::join(e.cells, "\t"));
  }
  WARN(fmt::format("{} of {} corpus answers decided (proved or refuted), none wrong", decided, checked));
}

}  // namespace verifier_corpus_test
