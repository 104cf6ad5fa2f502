// The verifier: decides properties of a ruleset for one player count and option setting.
// Results are `proved` (Z3 proved it for every game, or a replayable witness game shows an
// existence claim), `refuted` (with a counterexample game log that `rulebook replay`
// accepts, or with Z3's proof that something is impossible), or `unknown` with the reason.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "rulebook/grammar/source.hpp"
#include "rulebook/ir/ir.hpp"
#include "rulebook/interpreter/machine.hpp"

namespace rulebook::verifier {

enum class Status { kProved, kRefuted, kUnknown };
const char* status_name(Status status);

// The properties, in the order they are reported.
struct PropertyInfo {
  const char* name;
  const char* summary;
};
const std::vector<PropertyInfo>& properties();

// One step of a counterexample: the move and what it changed.
struct TraceStep {
  std::int64_t step = 0;        // 1-based move number (0: the start)
  std::string player;
  std::string choice;
  std::string rule;             // label of the deciding rule
  std::string where;            // file:line of that rule
  std::vector<std::string> changes;  // `count(deck): 36 -> 32`
};

struct Counterexample {
  std::string log;              // JSON Lines, accepted by `rulebook replay`
  std::vector<TraceStep> steps;
  std::string violation;        // the broken property, in numbers
  std::uint64_t seed = 0;
};

struct Finding {
  std::string property;
  std::string subject;          // a rule label, a seat, a loop, an invariant name, or empty
  std::string key;              // a short stable name of the subject (file names, SARIF)
  Status status = Status::kUnknown;
  std::string method;
  std::string message;
  std::vector<std::string> details;
  grammar::SourceSpan span;
  std::string where;            // file:line of span
  std::optional<Counterexample> counterexample;
  // knowable-moves refuted: a second game in which the chooser of the counterexample's last
  // decision has seen exactly the same and has other options.
  std::optional<Counterexample> twin;
  double seconds = 0;
};

// What the verifier is doing, for a progress display (`rulebook verify` draws it on a
// terminal). The verifier prints nothing itself: it calls VerifyOptions::progress from the
// thread that called verify(), when a stage starts and often within one (every game, every
// 4,096 states searched, every induction query), so the caller should throttle what it draws.
struct Progress {
  enum class Stage {
    kSampling,    // the games that suggest invariants: done/total games
    kWitnesses,   // long witness games (docs/verification.md): done games, of at most total
    kSearch,      // the exhaustive search: done states, of at most total
    kInvariants,  // the invariant search: `left` positions still to check, done queries
    kProperty,    // deciding `property`: done properties of total
  };
  Stage stage = Stage::kSampling;
  std::int64_t players = 0;
  std::int64_t done = 0;
  std::int64_t total = 0;
  std::int64_t left = 0;
  std::string property;
};
using ProgressCallback = std::function<void(const Progress&)>;

struct VerifyOptions {
  std::int64_t players = 0;                  // 0: the ruleset's default count
  std::map<std::string, std::string> options;
  std::vector<std::string> properties;       // empty: all
  std::int64_t games = 300;                  // simulated games that suggest invariants
  std::int64_t bound = 2000;                 // move cap of a simulated game; lasso search depth
  std::int64_t rounds = 100;                 // round cap of a simulated game
  std::int64_t search_states = 100000;       // states the exhaustive search for counterexamples visits
  double search_seconds = 20;                // and the seconds it may take
  unsigned timeout_seconds = 60;             // Z3 time per finding (all its queries); then unknown
  double budget_seconds = 600;               // for the invariant search as a whole
  std::uint64_t seed = 1;
  bool show_invariants = false;              // keep the proved invariant at each decision
  ProgressCallback progress;                 // empty: no progress reported
};

struct VerifyStats {
  std::int32_t card_classes = 0;
  std::int32_t state_variables = 0;
  std::int32_t positions = 0;      // cut points: where invariants are kept
  std::int32_t instructions = 0;   // of the program, fused into blocks between the cut points
  std::int64_t sampled_states = 0;
  std::int64_t queries = 0;
  std::int64_t weakenings = 0;
  double inference_seconds = 0;
  bool inference_finished = true;
};

struct VerifyReport {
  std::string title;
  std::int64_t players = 0;
  std::map<std::string, std::string> options;  // as given
  std::vector<Finding> findings;
  VerifyStats stats;
  std::vector<std::string> notes;              // precision notes about the abstraction
  // With show_invariants: per decision (its rule's file:line), the facts of its inductive
  // invariant.
  std::vector<std::pair<std::string, std::vector<std::string>>> invariants;
  double seconds = 0;
};

// A failure inside the verifier (Z3 refused a term): a bug to report, not bad input.
class InternalError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws interpreter::ConfigError for a bad configuration, std::invalid_argument for an
// unknown property name and InternalError for a failure of the verifier itself.
VerifyReport verify(const interpreter::Machine& machine, const VerifyOptions& options);

// Exit status for a set of reports: 0 all proved, 1 something refuted, 3 something unknown.
int exit_code(const std::vector<VerifyReport>& reports);

}  // namespace rulebook::verifier
