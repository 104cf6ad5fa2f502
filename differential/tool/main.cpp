// rulebook-difftest: the differential check of the verifier (docs/verification.md, "How the
// verifier is tested"). Generates rule files from seeds (or reads the files given), explores
// every game of each exhaustively, runs the verifier, and reports every disagreement, shrunk
// by the reducer when asked. Exit 0: no disagreement; 1: some; 2: bad usage or input; 130:
// interrupted (SIGINT or SIGTERM: it stops after the file at hand and prints the summary).
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "rulebook/differential/check.hpp"
#include "rulebook/differential/generate.hpp"
#include "rulebook/differential/reduce.hpp"

namespace rd = rulebook::differential;

namespace {

std::atomic<int> g_signal{0};
extern "C" void on_signal(int signal) { g_signal.store(signal); }

// Writes through a temporary file and a rename, so that an interrupted run leaves no half file.
bool write_file(const std::filesystem::path& path, const std::string& text) {
  const std::filesystem::path part = path.string() + ".part";
  {
    std::ofstream out(part, std::ios::binary);
    out << text;
    out.flush();
    if (!out) {
      std::error_code ec;
      std::filesystem::remove(part, ec);
      return false;
    }
  }
  std::error_code ec;
  std::filesystem::rename(part, path, ec);
  return !ec;
}

std::string describe(const std::vector<rd::Disagreement>& list) {
  std::string out;
  for (const rd::Disagreement& d : list) {
    out += fmt::format("{}{}: the verifier {}; but {}\n", d.property, d.subject.empty() ? "" : " (" + d.subject + ")", d.verifier, d.truth);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Checks the verifier against exhaustive play of generated rule files (or of the files given)"};
  std::uint64_t seed = 1;
  std::int64_t count = 100;
  double seconds = 0;
  std::string out_dir;
  bool reduce = false, print = false, quiet = false;
  std::vector<std::string> files;
  app.add_option("--seed", seed, "first seed of the generated files")->capture_default_str();
  app.add_option("--count", count, "how many files to generate")->capture_default_str()->check(CLI::Range(std::int64_t{1}, std::int64_t{100000000}));
  app.add_option("--seconds", seconds, "generate files until this many seconds have passed (0: --count decides)")
      ->check(CLI::Range(0.0, 1e7));
  app.add_option("--out", out_dir, "write each disagreeing file (and what disagrees) into this folder");
  app.add_flag("--reduce", reduce, "shrink each disagreeing file while it still disagrees the same way");
  app.add_flag("--print", print, "print the generated file of --seed and exit (nothing is checked)");
  app.add_flag("--quiet", quiet, "print only disagreements and the summary");
  rd::GeneratorLimits limits;
  app.add_option("--max-players", limits.max_players, "most human players of a generated file (1 to 5)")
      ->capture_default_str()->check(CLI::Range(1, 5));
  app.add_option("--max-cards", limits.max_cards, "most cards of a generated file")->capture_default_str()->check(CLI::Range(2, 12));
  app.add_option("--max-statements", limits.max_statements, "most statements of a generated round, nested ones aside")
      ->capture_default_str()->check(CLI::Range(1, 20));
  app.add_option("--max-depth", limits.max_depth, "most nesting of blocks inside a generated round")
      ->capture_default_str()->check(CLI::Range(0, 5));
  app.add_option("files", files, "rule files to check instead of generated ones")->check(CLI::ExistingFile);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }

  if (print) {
    std::cout << rd::generate_checked(seed, limits);
    return 0;
  }
  if (!out_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(out_dir, ec);
    if (ec) {
      std::cerr << fmt::format("rulebook-difftest: cannot create {}: {}\n", out_dir, ec.message());
      return 2;
    }
  }
  const rd::CheckOptions options;
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  const auto started = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(); };
  double next_progress = 60;
  std::int64_t checked = 0, properties = 0, states = 0, complete = 0, drafts = 0, disagreeing = 0, proved = 0, refuted = 0, steps = 0;
  auto one = [&](const std::string& text, const std::string& name) {
    const rd::FileCheck r = rd::check_rules(text, name, options);
    if (!r.checked) {
      std::cerr << fmt::format("{}: does not pass check:\n{}", name, r.message);
      return false;
    }
    ++checked;
    properties += r.properties;
    proved += r.proved;
    refuted += r.refuted;
    states += r.truth.states;
    steps += r.oracle_steps;
    complete += r.truth.complete ? 1 : 0;
    if (!quiet) {
      std::cout << fmt::format("{}: {} states{}, {} proved, {} refuted, {} unknown, {} oracle steps (explore {:.1f} s, verify "
                               "{:.1f} s, oracle {:.1f} s){}\n",
                               name, r.truth.states, r.truth.complete ? "" : " (not complete: " + r.truth.incomplete + ")", r.proved,
                               r.refuted, r.unknown, r.oracle_steps, r.explore_seconds, r.verify_seconds, r.oracle_seconds,
                               r.disagreements.empty() ? "" : ": DISAGREES");
    }
    if (r.disagreements.empty()) return true;
    ++disagreeing;
    std::string shown = text;
    if (reduce) {
      const std::vector<rd::Disagreement> wanted = r.disagreements;
      shown = rd::reduce_rules(text, [&](const std::string& smaller) {
        const rd::FileCheck s = rd::check_rules(smaller, name, options);
        for (const rd::Disagreement& d : s.disagreements) {
          for (const rd::Disagreement& w : wanted) {
            if (rd::same_kind(d, w)) return true;
          }
        }
        return false;
      });
    }
    std::cout << fmt::format("{} disagrees:\n{}", name, describe(r.disagreements));
    if (!out_dir.empty()) {
      const std::filesystem::path base = std::filesystem::path(out_dir) / std::filesystem::path(name).filename();
      if (!write_file(base.string() + (reduce ? ".reduced.rules" : ".rules"), shown) ||
          !write_file(base.string() + ".txt", describe(r.disagreements))) {
        std::cerr << fmt::format("rulebook-difftest: cannot write into {}\n", out_dir);
      }
    } else if (reduce) {
      std::cout << "reduced:\n" << shown;
    }
    return true;
  };
  bool bad = false;
  if (!files.empty()) {
    for (const std::string& path : files) {
      if (g_signal.load() != 0) break;
      std::ifstream in(path, std::ios::binary);
      std::stringstream text;
      text << in.rdbuf();
      bad = !one(text.str(), path) || bad;
    }
  } else {
    for (std::int64_t k = 0;; ++k) {
      if (g_signal.load() != 0 || (seconds > 0 ? elapsed() >= seconds : k >= count)) break;
      if (quiet && elapsed() >= next_progress) {
        // A long quiet run says every minute how far it is, on stderr.
        std::cerr << fmt::format("rulebook-difftest: {:.0f} s, {} files, {} states, {} findings compared, {} file(s) disagree\n",
                                 elapsed(), checked, states, properties, disagreeing);
        next_progress += 60;
      }
      std::int32_t attempts = 0;
      const std::uint64_t s = seed + static_cast<std::uint64_t>(k);
      const std::string text = rd::generate_checked(s, limits, &attempts);
      drafts += attempts;
      (void)one(text, fmt::format("seed-{}", s));
    }
  }
  const double took = elapsed();
  const int signal = g_signal.load();
  std::cout << fmt::format("{} files ({} drafts), {} explored completely, {} states; {} findings compared ({} proved, {} refuted); "
                           "{} oracle steps; {} file(s) disagree; {:.0f} s{}\n",
                           checked, drafts, complete, states, properties, proved, refuted, steps, disagreeing, took,
                           signal != 0 ? fmt::format(" (interrupted by signal {})", signal) : "");
  if (bad) return 2;
  if (signal != 0 && disagreeing == 0) return 130;
  return disagreeing > 0 ? 1 : 0;
}
