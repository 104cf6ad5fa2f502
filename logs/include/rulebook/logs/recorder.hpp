// Recording a game played at a table (`rulebook record`): the scorekeeper says only what the
// table decided or revealed, the rules do the rest. The recorder keeps the answers given so
// far and re-runs the rules over them from the start after each one (a game takes a few
// milliseconds), up to the next thing only the table knows: a decision, or the faces of
// cards that came out of a shuffled pile. Its log is a normal game log (docs/log-format.md)
// that `replay` checks; docs/recording.md describes the session.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "rulebook/grammar/source.hpp"
#include "rulebook/interpreter/machine.hpp"

namespace rulebook::interpreter {

struct RecordSetup {
  std::int64_t players = 0;                   // 0: the ruleset's default count
  std::map<std::string, std::string> options;  // NAME=VALUE, as on the command line
  std::vector<std::string> names;             // one per seat, or one per human player, or none
  // Header members this rulebook does not know, KEY and compact JSON, from a log it goes on
  // with: written back as they were (a later version or another tool may need them).
  std::vector<std::pair<std::string, std::string>> kept_header;
};

// What the recorder needs from the table next.
struct Question {
  enum class Kind { kReveal, kMove, kOver };
  Kind kind = Kind::kOver;
  // kReveal: `count` cards came out of the shuffled `from` into `zone` and can now be seen;
  // which ones they are is one of `candidates` each (the cards of that shuffle not seen yet).
  std::string zone, from;
  std::size_t count = 0;
  // kMove: `player` chooses in `rule` (its label, or ""), one of `legal` (log notation).
  std::string player, rule;
  // kReveal: the candidates; kMove: the legal choices.
  std::vector<std::string> options;
  // kOver: how the game ended (winners and scores, or the rule fault).
  std::string summary;
  std::int64_t round = 0;
};

// The setup a saved log records (players, options, names from its header), or nullopt with
// the reason in `error`.
std::optional<RecordSetup> record_setup_of(const std::string& log, std::string& error);

class Recorder {
 public:
  // Throws ConfigError when the rules do not allow this setup (players, options, names).
  Recorder(const Machine& machine, const grammar::SourceManager& rule_sources, RecordSetup setup);

  [[nodiscard]] const Question& question() const { return question_; }
  [[nodiscard]] const State& state() const { return state_; }

  // Answers the question: a choice (a prefix of one legal choice is enough), or the cards
  // revealed separated by spaces or commas. Returns "" when taken, else why it is impossible
  // (an illegal move is explained by the replay, as `replay` would).
  std::string answer(const std::string& text);
  // Takes back the last answer. False when there is none.
  bool undo();
  [[nodiscard]] std::size_t answers() const { return entries_.size(); }

  // The log so far: it replays with `replay` (with --partial until the game is over). The
  // cards seen are noted in `// seen ZONE: CARDS` comment lines, which let `resume` read it.
  [[nodiscard]] std::string log_text() const;
  // Continues a log written by a recorder: takes its answers again, in order. Returns "" or
  // what is wrong (the recorder then holds the answers before the problem).
  std::string resume(const std::string& log);

  // The options the question's answer may be completed from, matching `prefix` (case does
  // not matter); an exact match alone if there is one.
  [[nodiscard]] std::vector<std::string> completions(const std::string& prefix) const;

  // One line for a player: its name, or `player 2`.
  [[nodiscard]] std::string who(PlayerId p) const;

  // Internal: what a recorded answer pins down (public for the run's event sink).
  struct Pin {
    std::size_t shuffle = 0;   // the how-manyth shuffle of the game
    std::size_t position = 0;  // in its result, bottom to top
    CardId card = -1;
  };
  struct Entry {
    std::string move;       // a decision: its choice as log JSON; "" for a reveal
    std::vector<Pin> pins;  // a reveal: the cards named, where they lie in the shuffle
    // Comment lines a person wrote in the log just before this answer: written back there.
    std::vector<std::string> notes;
  };

 private:
  // Runs the rules over the entries from the start, up to the next question.
  void rerun();
  // Adds an answer and runs the rules over it; "" or why it cannot be taken.
  std::string take(Entry entry);
  std::string answer_move(const std::string& text);
  // `typed`: at the prompt (its hints may mention `?`), not a `// seen` note of a log.
  std::string answer_reveal(const std::string& text, bool typed);
  std::string explain_illegal(const std::string& choice_json) const;
  [[nodiscard]] std::string summary() const;

  const Machine& machine_;
  const grammar::SourceManager& rule_sources_;
  GameConfig config_;
  std::vector<std::string> names_;  // one per seat, or empty: seats go by number
  std::vector<std::pair<std::string, std::string>> kept_header_;  // RecordSetup::kept_header
  std::int32_t seats_ = 0;
  std::vector<Entry> entries_;
  // Comment lines of a resumed log after its last answer: they go before the next answer.
  std::vector<std::string> pending_notes_;
  // From the last run.
  State state_;
  Question question_;
  std::string log_;  // as the LogWriter wrote it, comments included
  // A pending reveal: the shuffle and the positions of the placeholders, top first.
  std::size_t reveal_shuffle_ = 0;
  std::vector<std::size_t> reveal_positions_;
  std::vector<CardId> reveal_candidates_;
  std::vector<std::string> legal_json_;  // the legal choices as log JSON
  std::vector<std::int64_t> card_group_;  // per card: the last shuffle it was in, or -1
};

}  // namespace rulebook::interpreter
