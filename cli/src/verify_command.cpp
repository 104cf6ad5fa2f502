// `rulebook verify FILE`: decides the ruleset's properties with Z3 for each player count
// asked, and prints each result (text, JSON or SARIF 2.1.0). Counterexamples are game logs
// that `rulebook replay` accepts; --cex-out writes them to files.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "game_setup.hpp"
#include "number_options.hpp"
#include "output.hpp"
#include "progress.hpp"
#include "sarif.hpp"
#include "rulebook/grammar/printable.hpp"
#include "rulebook/verifier/verify.hpp"
#include "path_options.hpp"

namespace rulebook::cli {

namespace {

namespace ri = rulebook::interpreter;
namespace rv = rulebook::verifier;

struct VerifyCommandOptions {
  std::string file;
  std::vector<std::int64_t> players;
  std::vector<std::string> option_specs;
  std::vector<std::string> properties;
  std::int64_t bound = 2000;
  std::int64_t games = 300;
  std::int64_t rounds = 100;
  std::int64_t search_states = 100000;
  double search_seconds = 20;
  unsigned timeout = 60;
  double budget = 600;
  std::uint64_t seed = 1;
  std::string cex_out;
  std::string format = "text";
  bool show_invariants = false;
  bool progress = false;     // --progress: the status line even when stderr is no terminal
  bool no_progress = false;  // --no-progress: none even on a terminal
};

// A file-name form of a finding's key: lower-case letters, digits, '_' and '-'. A key cut at
// 40 characters gets 8 hex digits of a hash of the whole key, so that two long names with the
// same start get two files (they shared one, the second overwriting the first: the seventh
// probe).
std::string slug(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_') {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!out.empty() && out.back() != '-') {
      out += '-';
    }
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  if (out.size() <= 40) return out;
  std::uint32_t hash = 2166136261U;  // FNV-1a: the same name on every machine
  for (const char c : text) hash = (hash ^ static_cast<unsigned char>(c)) * 16777619U;
  out.resize(40);
  while (!out.empty() && out.back() == '-') out.pop_back();
  return fmt::format("{}-{:08x}", out, hash);
}

// The file a counterexample is written to: property, subject and player count, and a number
// when an earlier finding of the run has the same name (keys that differ only in what the
// name leaves out, as `a b` and `a-b`).
std::string cex_name(const rv::Finding& f, std::int64_t players, std::set<std::string>& used) {
  std::string name = f.property;
  if (!f.key.empty() && f.key != f.property) name += "-" + slug(f.key);
  std::string file = fmt::format("{}-{}p.jsonl", name, players);
  for (int n = 2; !used.insert(file).second; ++n) file = fmt::format("{}-{}p-{}.jsonl", name, players, n);
  return file;
}

// Where the twin of a knowable-moves refutation is written: beside its counterexample.
std::string twin_path(const std::string& log_path) {
  if (log_path.empty()) return log_path;
  return log_path.substr(0, log_path.size() - std::string_view(".jsonl").size()) + "-twin.jsonl";
}

nlohmann::json counterexample_json(const rv::Counterexample& cex, const std::string& log_path) {
  nlohmann::json steps = nlohmann::json::array();
  for (const rv::TraceStep& s : cex.steps) {
    steps.push_back({{"step", s.step}, {"player", s.player}, {"choice", s.choice}, {"rule", s.rule},
                     {"where", s.where}, {"changes", s.changes}});
  }
  nlohmann::json j = {{"violation", cex.violation}, {"seed", cex.seed}, {"steps", steps}, {"log", cex.log}};
  if (!log_path.empty()) j["log_file"] = log_path;
  return j;
}

nlohmann::json finding_json(const rv::Finding& f, const std::string& log_path) {
  nlohmann::json j = {{"property", f.property}, {"subject", f.subject}, {"status", rv::status_name(f.status)},
                      {"method", f.method},     {"message", f.message}, {"details", f.details},
                      {"where", f.where},       {"seconds", f.seconds}};
  if (f.counterexample) j["counterexample"] = counterexample_json(*f.counterexample, log_path);
  if (f.twin) j["twin"] = counterexample_json(*f.twin, twin_path(log_path));
  return j;
}

void print_trace(const rv::Counterexample& cex, const char* what = "counterexample") {
  fmt::print("    {} ({} moves): {}\n", what, cex.steps.size(), cex.violation);
  // Only the moves that changed something the abstraction keeps, and the last few.
  std::size_t shown = 0;
  for (std::size_t i = 0; i < cex.steps.size(); ++i) {
    const rv::TraceStep& s = cex.steps[i];
    const bool last = i + 4 >= cex.steps.size();
    if (s.changes.empty() && !last) continue;
    if (++shown > 40 && !last) continue;
    fmt::print("      {:>4}  {:<8} {:<14} {:<18} {}\n", s.step, s.player, s.choice,
               s.rule.empty() ? std::string("-") : fmt::format("{} ({})", s.rule, s.where),
               s.changes.empty() ? std::string("") : fmt::format("{}", fmt::join(s.changes, ", ")));
  }
  if (shown > 40) fmt::print("      ... {} more moves with changes not shown (see --format json)\n", shown - 40);
}

// `cex_out`: whether --cex-out was given (a log path left empty then failed to be written).
void print_report(const rv::VerifyReport& r, const std::vector<std::string>& log_paths, bool cex_out) {
  std::vector<std::string> options;
  for (const auto& [k, v] : r.options) options.push_back(k + "=" + v);
  fmt::print("{}, {} players{}\n", r.title, r.players,
             options.empty() ? std::string() : fmt::format(" ({})", fmt::join(options, ", ")));
  std::size_t proved = 0, refuted = 0, unknown = 0;
  for (std::size_t i = 0; i < r.findings.size(); ++i) {
    const rv::Finding& f = r.findings[i];
    (f.status == rv::Status::kProved ? proved : f.status == rv::Status::kRefuted ? refuted : unknown) += 1;
    fmt::print("  {:<8} {:<18} {}\n", rv::status_name(f.status), f.property, f.message);
    fmt::print("    method: {}\n", f.method);
    for (const std::string& d : f.details) fmt::print("    - {}\n", d);
    if (f.counterexample) {
      print_trace(*f.counterexample);
      if (!log_paths[i].empty()) {
        fmt::print("    log: {} (rulebook replay --partial accepts it)\n", grammar::printable(log_paths[i]));
      } else if (cex_out) {
        fmt::print("    log: not written (the error is above)\n");
      } else {
        fmt::print("    log: run with --cex-out DIR to write it\n");
      }
    }
    if (f.twin) {
      print_trace(*f.twin, "twin game");
      if (!log_paths[i].empty()) fmt::print("    twin log: {}\n", grammar::printable(twin_path(log_paths[i])));
    }
  }
  for (const auto& [where, facts] : r.invariants) {
    fmt::print("  invariant at {} (proved inductive):\n", where);
    for (const std::string& fact : facts) fmt::print("    {}\n", fact);
  }
  for (const std::string& n : r.notes) fmt::print("  note: {}\n", n);
  fmt::print("  {} proved, {} refuted, {} unknown in {:.1f} s\n", proved, refuted, unknown, r.seconds);
}

// SARIF 2.1.0: one result per finding, stable rule ids per property, the counterexample as
// a thread flow whose locations are the rules that decided each move.
nlohmann::json sarif(const std::string& file, const std::vector<rv::VerifyReport>& reports,
                     const std::vector<std::vector<std::string>>& log_paths) {
  nlohmann::json rules = nlohmann::json::array();
  for (const rv::PropertyInfo& p : rv::properties()) {
    rules.push_back({{"id", fmt::format("rulebook/{}", p.name)},
                     {"name", p.name},
                     {"shortDescription", {{"text", p.summary}}}});
  }
  auto location = [&](const std::string& where, const std::string& message) {
    nlohmann::json loc;
    std::string path = file;
    std::int64_t line = 1;
    if (const auto colon = where.rfind(':'); colon != std::string::npos && where != "?") {
      path = where.substr(0, colon);
      line = std::max<std::int64_t>(1, std::atoll(where.c_str() + colon + 1));
    }
    loc["physicalLocation"] = {{"artifactLocation", {{"uri", uri_reference(path)}}}, {"region", {{"startLine", line}}}};
    if (!message.empty()) loc["message"] = {{"text", message}};
    return loc;
  };
  nlohmann::json results = nlohmann::json::array();
  for (std::size_t r = 0; r < reports.size(); ++r) {
    for (std::size_t i = 0; i < reports[r].findings.size(); ++i) {
      const rv::Finding& f = reports[r].findings[i];
      nlohmann::json res;
      res["ruleId"] = fmt::format("rulebook/{}", f.property);
      res["kind"] = f.status == rv::Status::kProved ? "pass" : f.status == rv::Status::kRefuted ? "fail" : "review";
      res["level"] = f.status == rv::Status::kRefuted ? "error" : f.status == rv::Status::kUnknown ? "warning" : "none";
      res["message"] = {{"text", fmt::format("{} players: {}", reports[r].players, f.message)}};
      res["locations"] = nlohmann::json::array({location(f.where.empty() ? file + ":1" : f.where, "")});
      res["properties"] = {{"status", rv::status_name(f.status)}, {"players", reports[r].players},
                           {"method", f.method}, {"subject", f.subject}, {"details", f.details}};
      if (f.counterexample) {
        nlohmann::json flow = nlohmann::json::array();
        for (const rv::TraceStep& s : f.counterexample->steps) {
          if (s.changes.empty()) continue;
          const std::string text = fmt::format("move {}: {} chooses {}; {}", s.step, s.player, s.choice, fmt::join(s.changes, ", "));
          flow.push_back({{"location", location(s.where.empty() ? file + ":1" : s.where, text)}});
        }
        flow.push_back({{"location", location(f.where.empty() ? file + ":1" : f.where, f.counterexample->violation)}});
        nlohmann::json flows = nlohmann::json::array({{{"locations", flow}}});
        if (f.twin) {
          nlohmann::json twin = nlohmann::json::array();
          for (const rv::TraceStep& s : f.twin->steps) {
            if (s.changes.empty()) continue;
            const std::string text = fmt::format("twin, move {}: {} chooses {}; {}", s.step, s.player, s.choice, fmt::join(s.changes, ", "));
            twin.push_back({{"location", location(s.where.empty() ? file + ":1" : s.where, text)}});
          }
          twin.push_back({{"location", location(f.where.empty() ? file + ":1" : f.where, f.twin->violation)}});
          flows.push_back({{"locations", twin}});
        }
        res["codeFlows"] = nlohmann::json::array({{{"threadFlows", flows}}});
        if (!log_paths[r][i].empty()) res["properties"]["counterexampleLog"] = log_paths[r][i];
        if (f.twin && !log_paths[r][i].empty()) res["properties"]["twinLog"] = twin_path(log_paths[r][i]);
      }
      results.push_back(res);
    }
  }
  return sarif_log("rulebook verify", std::move(rules), std::move(results));
}

// The status line of a verification: what it does now, for the player count it checks.
std::string progress_text(const rv::Progress& p) {
  const std::string who = fmt::format("verify, {} players: ", p.players);
  switch (p.stage) {
    case rv::Progress::Stage::kSampling:
      return who + fmt::format("sampling {} {}/{} games", progress_bar(p.done, p.total, 20), p.done, p.total);
    case rv::Progress::Stage::kWitnesses:
      return who + fmt::format("long witness games, {} played (at most {})", p.done, p.total);
    case rv::Progress::Stage::kSearch:
      return who + fmt::format("exhaustive search, {} states (at most {})", p.done, p.total);
    case rv::Progress::Stage::kInvariants:
      return who + fmt::format("invariant search, {} position(s) with candidates left, {} queries", p.left, p.done);
    case rv::Progress::Stage::kProperty:
      return who + fmt::format("deciding {} ({}/{} properties done)", p.property, p.done, p.total);
  }
  return who;
}

int run_verify(const VerifyCommandOptions& options) {
  const bool json = options.format == "json";
  // Progress on stderr: on a terminal unless --no-progress, elsewhere only with --progress.
  const bool show_progress = options.progress || (!options.no_progress && isatty(STDERR_FILENO) != 0);
  StatusLine status;
  // An error before the result: on stderr, and with --format json as the document on stdout.
  auto stop = [&](int code, const std::string& message) {
    status.clear();
    fmt::print(stderr, "{}\n", message);
    if (json) print_json_error(message, code, {{"ruleset", options.file}, {"reports", nlohmann::json::array()}});
    return code;
  };
  std::string option_error;
  const auto option_values = parse_option_specs(options.option_specs, option_error);
  if (!option_values) return stop(kExitBadInput, "error: " + option_error);
  int exit_code = kExitOk;
  std::set<std::string> used_names;  // --cex-out file names given in this run
  bool unwritten_logs = false;  // some --cex-out log could not be written (exit 2)
  const std::optional<ri::Machine> machine = load_machine(options.file, exit_code, output_format(options.format));
  if (!machine) return exit_code == kExitFinding ? kExitBadInput : exit_code;
  // A count given twice is verified once (it ran twice and wrote its logs twice).
  std::vector<std::int64_t> counts;
  for (const std::int64_t n : options.players) {
    if (std::find(counts.begin(), counts.end(), n) == counts.end()) counts.push_back(n);
  }
  if (counts.empty()) {
    for (std::int64_t n = machine->ir().players_min; n <= machine->ir().players_max; ++n) counts.push_back(n);
  }
  if (!options.cex_out.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(options.cex_out, ec);
    if (ec) {
      return stop(kExitBadInput, fmt::format("error: cannot create the folder '{}' for counterexamples: {}",
                                             grammar::printable(options.cex_out), ec.message()));
    }
    // Checked before the proofs, which take minutes: a folder that cannot take the logs.
    if (const std::string error = output_folder_error(options.cex_out); !error.empty()) {
      return stop(kExitBadInput, fmt::format("error: --cex-out {}: {}", grammar::printable(options.cex_out), error));
    }
  }
  std::vector<rv::VerifyReport> reports;
  std::vector<std::vector<std::string>> log_paths;
  for (const std::int64_t n : counts) {
    if (n < machine->ir().players_min || n > machine->ir().players_max) {
      return stop(kExitBadInput, fmt::format("error: --players {}: the ruleset allows {} to {} players", n,
                                             machine->ir().players_min, machine->ir().players_max));
    }
    rv::VerifyOptions vo;
    vo.players = n;
    vo.options = *option_values;
    vo.properties = options.properties;
    vo.bound = options.bound;
    vo.games = options.games;
    vo.rounds = options.rounds;
    vo.search_states = options.search_states;
    vo.search_seconds = options.search_seconds;
    vo.timeout_seconds = options.timeout;
    vo.budget_seconds = options.budget;
    vo.show_invariants = options.show_invariants;
    vo.seed = options.seed;
    if (show_progress) {
      vo.progress = [&status, last = std::optional<std::pair<rv::Progress::Stage, std::string>>()](
                        const rv::Progress& p) mutable {
        const bool changed = !last || last->first != p.stage || last->second != p.property;
        last.emplace(p.stage, p.property);
        status.show(progress_text(p), changed);
      };
    }
    try {
      reports.push_back(rv::verify(*machine, vo));
      status.clear();
    } catch (const ri::ConfigError& e) {
      return stop(kExitBadInput, fmt::format("error: {}", e.what()));
    } catch (const std::invalid_argument& e) {
      return stop(kExitBadInput, fmt::format("error: --property: {}", e.what()));
    } catch (const rv::InternalError& e) {
      // A verifier bug, not the user's: say so plainly instead of aborting.
      return stop(kExitInternal, fmt::format("internal error: {} (please report it with the rule file)", e.what()));
    }
    std::vector<std::string> paths;
    for (const rv::Finding& f : reports.back().findings) {
      std::string path;
      if (f.counterexample && !options.cex_out.empty()) {
        path = (std::filesystem::path(options.cex_out) / cex_name(f, n, used_names)).string();
        // A log that cannot be written loses only itself: the report (which carries the log in
        // JSON) is still printed, and the exit code says something failed.
        std::string error = write_file_atomically(path, f.counterexample->log, OutputName::kInFolder);
        if (error.empty() && f.twin) error = write_file_atomically(twin_path(path), f.twin->log, OutputName::kInFolder);
        if (!error.empty()) {
          status.clear();
          fmt::print(stderr, "error: {}\n", error);
          unwritten_logs = true;
          path.clear();
        }
      }
      paths.push_back(path);
    }
    log_paths.push_back(std::move(paths));
    if (options.format == "text") print_report(reports.back(), log_paths.back(), !options.cex_out.empty());
  }
  const int code = unwritten_logs ? kExitBadInput : rv::exit_code(reports);
  if (json) {
    nlohmann::json out = {{"ruleset", options.file}, {"reports", nlohmann::json::array()}, {"exit", code}};
    for (std::size_t r = 0; r < reports.size(); ++r) {
      const rv::VerifyReport& rep = reports[r];
      nlohmann::json findings = nlohmann::json::array();
      for (std::size_t i = 0; i < rep.findings.size(); ++i) findings.push_back(finding_json(rep.findings[i], log_paths[r][i]));
      out["reports"].push_back({{"title", rep.title},
                                {"players", rep.players},
                                {"options", rep.options},
                                {"findings", findings},
                                {"notes", rep.notes},
                                {"invariants", rep.invariants},
                                {"seconds", rep.seconds},
                                {"stats",
                                 {{"card_classes", rep.stats.card_classes},
                                  {"state_variables", rep.stats.state_variables},
                                  {"positions", rep.stats.positions},
                                  {"instructions", rep.stats.instructions},
                                  {"sampled_states", rep.stats.sampled_states},
                                  {"induction_queries", rep.stats.queries},
                                  {"weakenings", rep.stats.weakenings},
                                  {"inference_seconds", rep.stats.inference_seconds},
                                  {"inference_finished", rep.stats.inference_finished}}}});
    }
    fmt::print("{}\n", json_text(out, 2));
  } else if (options.format == "sarif") {
    fmt::print("{}\n", json_text(sarif(options.file, reports, log_paths), 2));
  }
  return code;
}

}  // namespace

void add_verify_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<VerifyCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "verify",
      "Prove or refute the ruleset's properties with Z3 (exit 0: all proved, 1: something refuted, 3: something "
      "unknown, 2: bad input)");
  cmd->add_option("file", options->file, "Rule file (a game or a variant)")->required();
  cmd->add_option("--players", options->players, "Player count to verify (repeatable; default: every count allowed)")
      ->transform(whole_number(1, 64));
  cmd->add_option("--option", options->option_specs, "Set a ruleset option")->type_name("NAME=VALUE");
  std::vector<std::string> names;
  for (const rv::PropertyInfo& p : rv::properties()) names.emplace_back(p.name);
  cmd->add_option("--property", options->properties, "Decide only this property (repeatable; default: all)")
      ->check(CLI::IsMember(names));
  cmd->add_option("--bound", options->bound, "Move cap of a simulated game; lasso search depth cap")
      ->transform(whole_number(1, 1000000))
      ->default_str("2000");
  cmd->add_option("--games", options->games, "Simulated games that suggest the invariants")
      ->transform(whole_number(1, 1000000))
      ->default_str("300");
  cmd->add_option("--rounds", options->rounds, "Round cap of a simulated game")
      ->transform(whole_number(1, 1000000))
      ->default_str("100");
  cmd->add_option("--search-states", options->search_states,
                  "States the exhaustive search over decisions may visit (0: no search)")
      ->transform(whole_number(0, 100000000))
      ->default_str("100000");
  cmd->add_option("--search-seconds", options->search_seconds, "Seconds the exhaustive search may take, and as many for long witness games")
      ->transform(decimal_number(0, 1e6))
      ->default_str("20");
  cmd->add_option("--timeout", options->timeout, "Seconds of Z3 time each property may take (all its queries); past it the property is unknown")
      ->transform(whole_number(1, 86400))
      ->default_str("60");
  cmd->add_option("--budget", options->budget,
                  "Seconds the inference (sampled games and invariant search) may take in all; past it no invariant is used (proofs become unknown)")
      ->transform(decimal_number(1, 1e6))
      ->default_str("600");
  cmd->add_option("--seed", options->seed, "Seed of the simulated games")
      ->transform(whole_number(0, std::numeric_limits<std::uint64_t>::max()))
      ->default_str("1");
  cmd->add_option("--cex-out", options->cex_out, "Write each counterexample as a game log into this folder")->check(output_path())
      ->type_name("DIR");
  cmd->add_flag("--invariants", options->show_invariants,
                "Print the inferred inductive invariant at each decision (the facts Z3 proved)");
  cmd->add_option("--format", options->format, "Output format")
      ->check(CLI::IsMember({"text", "json", "sarif"}))
      ->default_str("text");
  auto* progress = cmd->add_flag("--progress", options->progress,
                                 "Show what is being checked on stderr even when it is not a terminal (default: only on a terminal)");
  cmd->add_flag("--no-progress", options->no_progress, "Show no progress on stderr, even on a terminal")->excludes(progress);
  cmd->callback([options, &exit_code] { exit_code = run_verify(*options); });
}

}  // namespace rulebook::cli
