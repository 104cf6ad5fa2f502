// Replay, the log's last lines: the `end` line's results compared with the game's, the
// `fault` line with the rule fault, a `stopped` line's counts with where the replay is, and
// what may follow a `cut`. replay.cpp follows the game up to them.
#include <algorithm>

#include <fmt/format.h>

#include "replayer.hpp"

namespace rulebook::interpreter::detail {

// The counts of a cut or stopped line are whole numbers, its reason text.
void Replayer::check_counts(const LogLine& line, std::string_view type, LogValue body) {
  if (!body.is_object()) bad_log(line, type, fmt::format("\"{}\" is an object: moves, rounds, reason", type));
  for (const std::string_view key : {std::string_view("moves"), std::string_view("rounds"), std::string_view("max_moves")}) {
    if (body.contains(key) && (!body.at(key).is_integer() || body.at(key).integer() < 0)) {
      bad_log(line, key, fmt::format("\"{}\" is a whole number, at least 0, not {}", key, body.at(key).shown()));
    }
  }
  // A reason is text (5 passed: the tenth probe). A cap of 0 is one: verify's logs stop at
  // the first decision with it.
  if (body.contains("reason") && !body.at("reason").is_string()) {
    bad_log(line, "reason", fmt::format("\"reason\" is a string, not {}", body.at("reason").shown()));
  }
}

void Replayer::check_unrecorded(const LogLine& line, LogValue body) const {
  if (!body.is_object() || !body.contains("unrecorded")) return;
  LogValue v = body.at("unrecorded");
  if (!v.is_integer() || v.integer() < 0) {
    bad_log(line, "unrecorded", fmt::format("\"unrecorded\" is a whole number, at least 0, not {}", v.shown()));
  }
  if (!after_cut_) bad_log(line, "unrecorded", "\"unrecorded\" counts what a cut line left out, but no cut line comes before");
}

void Replayer::check_last_line_form(const LogEvent& event) {
  const char* kind = event.type == EventType::kEnd ? "end" : event.type == EventType::kFault ? "fault" : "stopped";
  LogValue body = event.value().at(kind);
  check_counts(event.line, kind, body);
  check_unrecorded(event.line, body);
  if (event.type == EventType::kEnd) {
    if (body.contains("winners")) {
      LogValue winners = body.at("winners");
      if (!winners.is_array()) bad_log(event.line, "winners", "\"winners\" is a list of players");
      winners.each([&](LogValue w) { (void)names_.player(event.line, w, "winners"); });
    }
    if (body.contains("scores")) {
      LogValue scores = body.at("scores");
      if (!scores.is_object()) bad_log(event.line, "scores", "\"scores\" is an object: score name to one number per seat");
      scores.each_member([&](std::string_view name, LogValue values) {
        if (std::none_of(ir_.scores.begin(), ir_.scores.end(), [&](const ScoreInfo& sc) { return sc.name == name; })) {
          bad_log(event.line, "scores", fmt::format("no score '{}' in these rules", shown(name)));
        }
        bool numbers = values.is_array();
        if (numbers) values.each([&](LogValue v) { numbers = numbers && (v.is_integer() || v.is_null()); });
        if (!numbers) bad_log(event.line, "scores", fmt::format("score '{}' is a list of whole numbers (or null), one a seat", shown(name)));
      });
    }
  } else if (event.type == EventType::kFault) {
    for (const char* key : {"message", "at"}) {
      if (body.contains(key) && !body.at(key).is_string()) bad_log(event.line, key, fmt::format("\"{}\" is a string", key));
    }
    if (body.contains("rule") && !body.at("rule").is_null()) (void)rule_of(event.line, body);
  }
}

void Replayer::check_stopped_here(const LogLine& line, LogValue body, const State& state) {
  // A stopped line stands for the rest of the game: one without counts, or with counts the
  // replay did not reach, passed any truncated log as a game stopped at its cap (the ninth
  // probe). Its moves and rounds are where the replay is; its cap is not above its moves.
  for (const std::string_view key : {std::string_view("moves"), std::string_view("rounds")}) {
    if (!body.contains(key)) {
      bad_log(line, "stopped", fmt::format("a stopped line gives \"moves\" and \"rounds\", where the game was stopped; this one has no \"{}\"", key));
    }
    const std::int64_t actual = key == "moves" ? state.moves : state.rounds;
    if (body.at(key).integer() != actual) {
      stop(ReplayOutcome::kIllegal, grammar::Code::kWrongResult, line, key,
           fmt::format("the log says the game was stopped after {} {}; by the rules it is at {}", body.at(key).integer(), key, actual), {});
    }
  }
  if (body.contains("max_moves") && body.at("max_moves").integer() > state.moves) {
    stop(ReplayOutcome::kIllegal, grammar::Code::kWrongResult, line, "max_moves",
         fmt::format("the log says the game was stopped at a cap of {} moves, but {} moves were made", body.at("max_moves").integer(),
                     state.moves),
         {});
  }
}

// What may follow a cut line: the log's last line only (a cut in the middle of a log, moves
// after it, replayed with exit 0 and no word: the seventh probe). Leaves the reader past the
// cut; `event` is gone then.
void Replayer::pass_cut(const LogEvent& event) {
  check_counts(event.line, "cut", event.value().at("cut"));
  const std::uint32_t cut_line = event.line.number;
  after_cut_ = true;
  reader_.advance();
  const LogEvent* after = reader_.peek();
  if (after != nullptr && after->type != EventType::kEnd && after->type != EventType::kFault && after->type != EventType::kStopped) {
    bad_log(after->line, "", fmt::format("a {} line after the cut at line {}: only the log's last line (end, fault or stopped) follows a cut",
                                         event_name(after->type), cut_line));
  }
  if (after != nullptr) check_last_line_form(*after);
}

void Replayer::finish_fault(const State& state) {
  const Fault& fault = *state.fault;
  skip_cut();
  const LogEvent* event = reader_.peek();
  const bool recorded = event != nullptr && event->type == EventType::kFault;
  std::string recorded_note;
  if (recorded) {
    // Each member the line gives is compared (the message alone was, so a wrong rule, place
    // or count passed: the eighth probe); one of the wrong type makes the log malformed.
    LogValue body = event->value().at("fault");
    if (!body.is_object()) bad_log(event->line, "fault", "\"fault\" is an object: message, rule, at, rounds, moves");
    check_unrecorded(event->line, body);
    const std::string rule = fault.rule >= 0 ? ir_.labels[static_cast<std::size_t>(fault.rule)] : std::string();
    std::vector<std::string> differ;
    const auto text = [&](const char* key, const std::string& actual, bool may_be_null) {
      if (!body.contains(key)) return;
      LogValue v = body.at(key);
      if (may_be_null && v.is_null()) {
        if (!actual.empty()) differ.push_back(fmt::format("{} null, by the rules '{}'", key, actual));
        return;
      }
      if (!v.is_string()) bad_log(event->line, key, fmt::format("\"{}\" is a string{}", key, may_be_null ? " or null" : ""));
      if (!v.is(actual)) differ.push_back(fmt::format("{} '{}', by the rules '{}'", key, v.shown(), actual));
    };
    text("message", fault.message, false);
    text("rule", rule, true);
    text("at", fault_place(machine_, fault), false);
    for (const char* key : {"rounds", "moves"}) {
      if (!body.contains(key)) continue;
      LogValue v = body.at(key);
      if (!v.is_integer()) bad_log(event->line, key, fmt::format("\"{}\" is a whole number", key));
      const std::int64_t actual = std::string_view(key) == "rounds" ? state.rounds : state.moves;
      if (v.integer() != actual) differ.push_back(fmt::format("{} {}, by the rules {}", key, v.shown(), actual));
    }
    recorded_note = differ.empty() ? "the log records this fault"
                                   : fmt::format("the log records another fault: {}", fmt::join(differ, "; "));
  } else {
    recorded_note = "the log does not record this fault";
  }
  const LogEvent at = recorded ? *event : LogEvent{EventType::kFault, reader_.last_line(), {}};
  grammar::Diagnostic d;
  d.code = grammar::Code::kRuleFault;
  d.span = span(at.line);
  d.message = fmt::format("after step {} the rules stop with a rule fault in {}: {}", result_.steps, rule_text(fault.rule), fault.message);
  d.notes.push_back(grammar::DiagnosticNote{fault.span, "the fault is here"});
  d.notes.push_back(grammar::DiagnosticNote{{}, recorded_note});
  throw ReplayStop{ReplayOutcome::kFault, std::move(d)};
}

void Replayer::check_end(const State& state) {
  skip_cut();
  const LogEvent* event = reader_.peek();
  if (event != nullptr && event->type == EventType::kEnd) {
    LogValue end = event->value().at("end");
    if (!end.is_object()) bad_log(event->line, "end", "\"end\" is an object: winners, scores, rounds, moves");
    check_unrecorded(event->line, end);
    if (end.contains("winners")) {
      LogValue winners = end.at("winners");
      if (!winners.is_array()) bad_log(event->line, "winners", "\"winners\" is a list of players");
      std::vector<PlayerId> logged;
      winners.each([&](LogValue w) { logged.push_back(names_.player(event->line, w, "winners")); });
      std::vector<PlayerId> actual = state.winners;
      std::sort(logged.begin(), logged.end());
      std::sort(actual.begin(), actual.end());
      if (logged != actual) {
        const auto names = [&](const std::vector<PlayerId>& ps) {
          std::vector<std::string> out;
          for (const PlayerId p : ps) out.push_back(names_.who(p));
          return out.empty() ? std::string("nobody") : fmt::format("{}", fmt::join(out, ", "));
        };
        stop(ReplayOutcome::kIllegal, grammar::Code::kWrongResult, event->line, "winners",
             fmt::format("the log says {} won; by the rules the winners are {}", names(logged), names(actual)), {});
      }
    }
    if (end.contains("scores")) {
      LogValue scores = end.at("scores");
      if (!scores.is_object()) bad_log(event->line, "scores", "\"scores\" is an object: score name to one number per seat");
      const auto values = machine_.scores(state);
      scores.each_member([&](std::string_view name, LogValue logged) {
        const auto it = std::find_if(ir_.scores.begin(), ir_.scores.end(), [&](const ScoreInfo& s) { return s.name == name; });
        if (it == ir_.scores.end()) bad_log(event->line, "scores", fmt::format("no score '{}' in these rules", detail::shown(name)));
        const auto& actual = values[static_cast<std::size_t>(it - ir_.scores.begin())];
        bool same = logged.is_array() && logged.size() == actual.size();
        std::size_t p = 0;
        if (same) {
          logged.each([&](LogValue v) {
            const ScoreValue& a = actual[p++];
            same = same && (a.faulted() ? v.is_null() : v.is(a.value));
          });
        }
        if (!same) {
          std::vector<std::string> texts;
          for (const ScoreValue& a : actual) texts.push_back(a.faulted() ? "null" : std::to_string(a.value));
          stop(ReplayOutcome::kIllegal, grammar::Code::kWrongResult, event->line, "scores",
               fmt::format("the log gives {} as {}; by the rules it is [{}]{}", name, logged.shown(), fmt::join(texts, ","),
                           std::any_of(actual.begin(), actual.end(), [](const ScoreValue& a) { return a.faulted(); })
                               ? " (null: the score's expression faults in the final state)"
                               : ""),
               {});
        }
      });
    }
    if (end.contains("payoffs")) check_payoffs(event->line, end.at("payoffs"), state);
    for (const char* key : {"rounds", "moves"}) {
      if (!end.contains(key)) continue;
      const std::int64_t actual = std::string_view(key) == "rounds" ? state.rounds : state.moves;
      // "2" (a string) is a malformed log, not a wrong count.
      if (!end.at(key).is_integer()) bad_log(event->line, key, fmt::format("\"{}\" is a whole number", key));
      if (!end.at(key).is(actual)) {
        stop(ReplayOutcome::kIllegal, grammar::Code::kWrongResult, event->line, key,
             fmt::format("the log says the game ended after {} {}; by the rules it ends after {}", end.at(key).shown(), key, actual), {});
      }
    }
    reader_.advance();
  }
  result_.ended = true;
}

// "payoffs": {"NAME": ["3/2", ...]}: each as the rules give it, exactly (`6/4` is 3/2).
void Replayer::check_payoffs(const LogLine& line, LogValue payoffs, const State& state) {
  if (!payoffs.is_object()) bad_log(line, "payoffs", "\"payoffs\" is an object: payoff name to one fraction per seat");
  payoffs.each_member([&](std::string_view name, LogValue logged) {
    const auto it = std::find_if(ir_.payoffs.begin(), ir_.payoffs.end(), [&](const auto& p) { return p.name == name; });
    if (it == ir_.payoffs.end()) bad_log(line, "payoffs", fmt::format("no payoff '{}' in these rules", detail::shown(name)));
    const auto index = static_cast<std::size_t>(it - ir_.payoffs.begin());
    if (!logged.is_array()) bad_log(line, "payoffs", fmt::format("payoff '{}' is a list of fractions such as \"3/2\", one a seat", detail::shown(name)));
    std::vector<interpreter::Rational> values;
    logged.each([&](LogValue v) {
      const auto r = v.is_string() ? interpreter::parse_rational(v.string()) : std::nullopt;
      if (!r) bad_log(line, "payoffs", fmt::format("{} in payoff '{}' is not a fraction such as \"3/2\"", v.shown(), detail::shown(name)));
      values.push_back(*r);
    });
    const std::vector<interpreter::Rational> none;
    const auto& actual = index < state.payoffs.size() ? state.payoffs[index] : none;
    if (values != actual) {
      std::vector<std::string> shown;
      for (const auto& r : actual) shown.push_back(interpreter::to_string(r));
      stop(ReplayOutcome::kIllegal, grammar::Code::kWrongResult, line, "payoffs",
           fmt::format("the log gives payoff {} as {}; by the rules it is [{}]", name, logged.shown(), fmt::join(shown, ", ")), {});
    }
  });
}

}  // namespace rulebook::interpreter::detail
