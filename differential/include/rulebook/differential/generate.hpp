// Random rule files for the differential check of the verifier (docs/verification.md, "How
// the verifier is tested"): small, well-typed programs over the whole language, sized so that
// every game of them can be played out exhaustively. The same seed gives the same file.
#pragma once

#include <cstdint>
#include <string>

namespace rulebook::differential {

struct GeneratorLimits {
  std::int32_t max_players = 5;     // 1 to this many human players (4 or 5 in one file of five)
  std::int32_t max_cards = 5;       // cards in all (two kinds at most, plus a joker or none)
  std::int32_t max_statements = 5;  // statements of the round block, not counting nested ones
  std::int32_t max_depth = 2;       // nesting of blocks inside the round
};

// One rule file. It may still fail `check` (a generated expression of the wrong shape is
// rare but possible): generate_checked() draws again until one passes.
std::string generate_rules(std::uint64_t seed, const GeneratorLimits& limits = {});

// A rule file that passes `check`, from the first of seed, seed + 2^32, seed + 2 * 2^32, ...
// that does; `attempts` (if given) is how many were drawn. Throws std::runtime_error when
// 64 drafts in a row fail (a bug of the generator).
std::string generate_checked(std::uint64_t seed, const GeneratorLimits& limits = {}, std::int32_t* attempts = nullptr);

}  // namespace rulebook::differential
