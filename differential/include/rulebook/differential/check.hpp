// The differential check of one rule file: the verifier's findings against the ground truth of
// exhaustive play, and every counterexample replayed. A disagreement is a bug of the verifier
// (or of this check): a `proved` that a game contradicts, a `refuted` whose counterexample
// does not replay or does not show the violation, a `refuted` that a complete exploration
// shows false.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rulebook/differential/explore.hpp"

namespace rulebook::differential {

struct Disagreement {
  std::string property;
  std::string subject;  // a rule label, a seat, an invariant, or empty
  std::string verifier; // proved or refuted, and the verifier's message
  std::string truth;    // what the exploration or the replay showed
};

struct CheckOptions {
  ExploreLimits explore;
  std::int64_t games = 60;           // the verifier's simulated games
  std::int64_t search_states = 5000; // its exhaustive search
  unsigned timeout_seconds = 10;     // Z3 time per finding
  double budget_seconds = 30;        // its invariant search
  bool oracle = true;                // also run the soundness oracle on the file
};

struct FileCheck {
  bool checked = false;      // false: the file does not pass `check` (the message says why)
  std::string message;
  Truth truth;
  std::int64_t properties = 0;  // findings compared (proved or refuted)
  std::int64_t proved = 0, refuted = 0, unknown = 0;
  std::vector<Disagreement> disagreements;
  double verify_seconds = 0, explore_seconds = 0, oracle_seconds = 0;
  std::int64_t oracle_steps = 0;     // concrete steps the oracle checked
};

// `name` is the file name the findings and logs mention.
FileCheck check_rules(const std::string& text, const std::string& name, const CheckOptions& options = {});

// The same disagreement (property, subject and which way), for the reducer.
bool same_kind(const Disagreement& a, const Disagreement& b);

}  // namespace rulebook::differential
