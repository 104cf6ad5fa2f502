// The Replayer (replay.cpp): the machine's event sink during a replay. It reads the log as
// the rules go and compares each event with it; replay_reading.cpp reads the log's values
// and words the diagnostics, replay.cpp follows the game.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "log_names.hpp"
#include "log_reader.hpp"
#include "rulebook/logs/log.hpp"
#include "rulebook/logs/replay.hpp"

namespace rulebook::interpreter::detail {

// Stops the replay with its outcome; the diagnostic says why.
struct ReplayStop {
  ReplayOutcome outcome;
  grammar::Diagnostic diagnostic;
};

// The log ended where the rules need more of it (a shuffle result, a move).
struct LogEnded {
  std::string waiting;  // what the rules wait for
  State state;
  std::string player, rule;  // at a decision: who is to choose, in which rule,
  std::vector<std::string> legal;  // and the legal choices
};

// The log was cut where the rules need what it left out (log.hpp,
// kMaxLogBytesWithoutDecision): the replay has checked everything before the cut.
struct LogCut {
  std::string reason;
  State state;
};

constexpr std::size_t kMaxListedMoves = 24;

// The span of a log line, or of `"key"` in it, or of one column.
grammar::SourceSpan log_span(std::string_view text, grammar::FileId file, const LogLine& line, std::string_view key,
                             std::uint32_t column);

class Replayer : public EventSink {
 public:
  Replayer(const Machine& machine, const grammar::SourceManager& sources, grammar::FileId log_file,
           const ReplayOptions& options, ReplayResult& result)
      : machine_(machine),
        ir_(machine.ir()),
        sources_(sources),
        log_file_(log_file),
        text_(sources.file(log_file).text),
        options_(options),
        result_(result),
        reader_(text_) {}

  void run();

  // EventSink: what the rules do, compared with the log as it happens.
  bool shuffle_result(const State& state, std::int32_t zone, std::vector<CardId>& cards) override;
  void dealt(const State& state, std::int32_t from, std::int32_t to, const std::vector<CardId>& cards) override;
  void chose(const State& state, PlayerId player, std::int32_t rule, const Value& choice, bool by_policy) override;
  bool draw_result(const State& state, std::int32_t rule, const std::vector<Value>& options, std::size_t& index) override;
  void round_started(const State& state) override;
  void round_ended(const State& state) override;
  void ended(const State& state) override;
  // kStop when the log ended or was cut where the rules need more of it, kError when a line
  // contradicts the rules or cannot be read: what happened waits in pending_.
  [[nodiscard]] SinkVerdict verdict() const override;

 private:
  // Why a callback stopped the game. Inside the Replayer, a check that fails throws one of
  // these (from deep in reading a value); each callback catches it here and returns, so
  // nothing is thrown through the machine. Once the machine has returned, raise_pending()
  // throws it again for run() to turn into the result.
  using Pending = std::variant<ReplayStop, LogError, LogEnded, LogCut>;
  template <typename Check>
  void guarded(Check&& check) {
    if (pending_) return;
    try {
      check();
    } catch (ReplayStop& e) {
      pending_.emplace(std::move(e));
    } catch (LogError& e) {
      pending_.emplace(std::move(e));
    } catch (LogEnded& e) {
      pending_.emplace(std::move(e));
    } catch (LogCut& e) {
      pending_.emplace(std::move(e));
    }
  }
  // Throws what stopped the game, if anything did.
  void raise_pending();

  // The checks behind the callbacks; they throw when the log and the rules disagree.
  bool check_shuffle(const State& state, std::int32_t zone, std::vector<CardId>& cards);
  void check_deal(const State& state, std::int32_t from, std::int32_t to, const std::vector<CardId>& cards);
  void check_round(const State& state);
  void check_policy(const State& state, PlayerId player, std::int32_t rule, const Value& choice, bool by_policy);
  std::size_t check_draw(const State& state, std::int32_t rule, const std::vector<Value>& options);

  GameConfig read_header();
  // Runs the game move by move from the log until it ends, or the log says it was stopped.
  void play(State& state);
  void check_move(State& state, const LogEvent& event);
  // A move of a decision with alternatives (replay_mixed.cpp).
  void check_mixed_move(State& state, const LogEvent& event, LogValue body, std::int64_t step, PlayerId player);
  [[nodiscard]] std::string move_notation(const State& state, std::int32_t alternative, const Value& choice) const;
  void check_payoffs(const LogLine& line, LogValue payoffs, const State& state);
  void check_end(const State& state);
  void finish_fault(const State& state);
  // The last line after a cut, which the replay does not reach: its members' types and names
  // (a cut let any end or fault line pass: the tenth probe).
  void check_last_line_form(const LogEvent& event);
  // "unrecorded": a whole number, and only on the last line after a cut.
  void check_unrecorded(const LogLine& line, LogValue body) const;
  // At a cut line: stops the replay there, with `state`.
  [[noreturn]] void cut(const LogEvent& event, const State& state);
  void pass_cut(const LogEvent& event);
  // A cut or stopped line's body: an object whose moves, rounds and max_moves are whole
  // numbers of at least 0.
  static void check_counts(const LogLine& line, std::string_view type, LogValue body);
  // A stopped line read where the rules wait: its counts against the replay's.
  void check_stopped_here(const LogLine& line, LogValue body, const State& state);
  // Steps over a cut line before the last line, which may follow one.
  void skip_cut();

  // A line's field, which must be there; the optional rule label of a decision (-2: none).
  [[nodiscard]] LogValue field(const LogEvent& event, LogValue object, const char* key, const char* what) const;
  [[nodiscard]] std::int32_t rule_of(const LogLine& line, LogValue body) const;
  // The logged choice, read as a value of the decision's type.
  [[nodiscard]] Value choice_of(const State& state, const LogLine& line, LogValue j, const Value& shape);

  // For --show-state and round scores: a round is over (the last one when the game ended).
  void record_round_end(const State& state, bool game_ended);
  // A copy of the state after the steps so far, when snapshots at steps are asked for.
  void snapshot_step(const State& state);

  [[nodiscard]] std::string rule_text(std::int32_t rule) const;
  [[nodiscard]] std::string waiting_text(const State& state) const;
  // What the rules wait for when the log ends at a decision.
  [[nodiscard]] LogEnded ended_at(const State& state) const;

  // Diagnostics.
  [[nodiscard]] grammar::SourceSpan span(const LogLine& line, std::string_view key = {}, std::uint32_t column = 0) const;
  [[noreturn]] static void bad_log(const LogLine& line, std::string_view key, const std::string& message) {
    throw LogError(line, std::string(key), message);
  }
  [[noreturn]] void stop(ReplayOutcome outcome, grammar::Code code, const LogLine& line, std::string_view key, std::string message,
                         std::vector<grammar::DiagnosticNote> notes) const;
  [[nodiscard]] grammar::DiagnosticNote rule_note(std::int32_t instr, const std::string& message) const;
  [[nodiscard]] grammar::DiagnosticNote legal_note(const State& state) const;
  // Counts a decision (line 0: an automated one the log leaves out) and traces it if asked.
  void record_step(std::uint32_t line, PlayerId player, const Value& choice, std::int32_t instr, bool by_policy,
                   const State& state);

  const Machine& machine_;
  const Ir& ir_;
  const grammar::SourceManager& sources_;  // the rule files, quoted when a move is illegal
  grammar::FileId log_file_;
  std::string_view text_;
  const ReplayOptions& options_;
  ReplayResult& result_;
  std::int64_t last_step_snapshot_ = -1;  // the step after which the last step snapshot was taken
  detail::LogReader reader_;
  LogLine header_line_;

  LogNames names_;
  std::optional<Pending> pending_;
  std::int32_t traced_alternative_ = -1;  // the alternative of the move record_step traces, or -1
  bool after_cut_ = false;                // a cut line has been passed
};

}  // namespace rulebook::interpreter::detail
