// The benchmark driver: runs the benchmarks Google Benchmark's way (its usual output and
// flags, `--benchmark_filter=...`), then prints one summary table of the figures issue 8
// asks for, with the ratios of figures measured in this same run.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace {

// Keeps every run's time per iteration (in milliseconds) and its counters by name.
class Collector : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      if (run.error_occurred || run.run_type != Run::RT_Iteration) continue;
      const double seconds = run.GetAdjustedRealTime() / benchmark::GetTimeUnitMultiplier(run.time_unit);
      Figure& f = figures_[run.benchmark_name()];
      f.ms = seconds * 1e3;
      for (const auto& [name, counter] : run.counters) f.counters[name] = counter.value;
    }
  }

  struct Figure {
    double ms = 0;
    std::map<std::string, double> counters;
  };
  // The figure of the first benchmark whose name starts with `name` (names end in the
  // options a benchmark was run with, such as `/min_time:3.000/real_time`).
  [[nodiscard]] std::optional<Figure> get(const std::string& name) const {
    const auto it = figures_.lower_bound(name);
    if (it == figures_.end() || it->first.compare(0, name.size(), name) != 0) return std::nullopt;
    return it->second;
  }

 private:
  std::map<std::string, Figure> figures_;
};

std::string ms(double v) { return v < 1 ? fmt::format("{:.3f} ms", v) : v < 1000 ? fmt::format("{:.1f} ms", v) : fmt::format("{:.1f} s", v / 1e3); }

void print_table(const Collector& c) {
  std::vector<std::string> lines;
  auto row = [&](const std::string& what, const std::string& value, const std::string& against, const std::string& ratio) {
    lines.push_back(fmt::format("| {:<38} | {:>16} | {:<30} | {:>7} |", what, value, against, ratio));
  };
  for (const char* game : {"molestation_4p", "molestation_2p", "clusterfk_4p"}) {
    const auto native = c.get(fmt::format("native_game/{}", game));
    const auto interp = c.get(fmt::format("random_game/{}", game));
    if (!native || !interp) continue;
    row(fmt::format("random playout, {}", game), ms(interp->ms), "native C++: " + ms(native->ms),
        fmt::format("{:.1f}x", interp->ms / native->ms));
  }
  for (const char* game : {"molestation_4p", "clusterfk_4p"}) {
    const auto replay = c.get(fmt::format("replay_game/{}", game));
    const auto play = c.get(fmt::format("random_game/{}", game));
    if (!replay || !play) continue;
    const double a = replay->counters.at("moves/s"), b = play->counters.at("moves/s");
    row(fmt::format("replay, {}", game), fmt::format("{:.0f}k moves/s", a / 1e3),
        fmt::format("random play: {:.0f}k moves/s", b / 1e3), fmt::format("{:.2f}x", a / b));
  }
  for (const char* game : {"molestation_4p", "clusterfk_4p"}) {
    const auto one = c.get(fmt::format("simulate_games/{}/1/", game));
    const auto two = c.get(fmt::format("simulate_games/{}/2/", game));
    if (!one || !two) continue;
    const double a = two->counters.at("games/s"), b = one->counters.at("games/s");
    row(fmt::format("simulate --jobs 2, {}", game), fmt::format("{:.0f} games/s", a),
        fmt::format("--jobs 1: {:.0f} games/s", b), fmt::format("{:.2f}x", a / b));
  }
  for (const char* rules : {"molestation", "clusterfk"}) {
    const auto parse = c.get(fmt::format("parse_only/{}", rules));
    const auto check = c.get(fmt::format("parse_and_check/{}", rules));
    if (!check) continue;
    row(fmt::format("parse + check, {}", rules), ms(check->ms), parse ? "parse alone: " + ms(parse->ms) : "", "");
  }
  for (const char* config : {"clusterfk_4p", "molestation_2p"}) {
    const auto verify = c.get(fmt::format("verify_ruleset/{}/", config));
    if (!verify) continue;
    row(fmt::format("verify, {}", config), ms(verify->ms),
        fmt::format("invariant search: {:.1f} s", verify->counters.at("inference_s")), "");
  }
  if (lines.empty()) return;
  std::printf("\nSummary (each ratio compares two figures of this run):\n\n");
  std::printf("| %-38s | %16s | %-30s | %7s |\n", "benchmark", "figure", "compared with", "ratio");
  std::printf("|%s|%s|%s|%s|\n", std::string(40, '-').c_str(), std::string(18, '-').c_str(), std::string(32, '-').c_str(),
              std::string(9, '-').c_str());
  for (const std::string& l : lines) std::printf("%s\n", l.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  Collector collector;
  benchmark::RunSpecifiedBenchmarks(&collector);
  print_table(collector);
  benchmark::Shutdown();
  return 0;
}
