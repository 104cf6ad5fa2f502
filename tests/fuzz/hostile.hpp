// Hostile shapes for the rule-file fuzzer: each turns a rule file into one with a shape that
// crashed or hung the tool before (issue 21): long flat operator chains, deeply nested
// types, many statements, long `else if` chains, defs that double at every layer, bytes that
// are not UTF-8, and numbers past every limit. The fuzzer's custom mutator applies them to
// its inputs (fuzz_rules.cpp); the regression test applies each to the shipped rulesets.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace rulebook::fuzz {

#define RULEBOOK_HOSTILE_SHAPES(X) \
  X(kLongChain, "long-chain")      \
  X(kDeepType, "deep-type")        \
  X(kManyStatements, "many-statements") \
  X(kElseIfChain, "else-if-chain") \
  X(kDoublingDefs, "doubling-defs") \
  X(kInvalidUtf8, "invalid-utf8")  \
  X(kHugeNumber, "huge-number")

enum class HostileShape {
#define RULEBOOK_HOSTILE_ENUM(name, text) name,
  RULEBOOK_HOSTILE_SHAPES(RULEBOOK_HOSTILE_ENUM)
#undef RULEBOOK_HOSTILE_ENUM
};

inline constexpr int kHostileShapes = 0
#define RULEBOOK_HOSTILE_COUNT(name, text) +1
    RULEBOOK_HOSTILE_SHAPES(RULEBOOK_HOSTILE_COUNT)
#undef RULEBOOK_HOSTILE_COUNT
    ;

const char* hostile_name(HostileShape shape);

// `text` with the shape put in where it parses when it can (a chain in place of a number, a
// type in place of `int`, statements after an opening brace, defs before the first `def`),
// `size` long or deep (repetitions, not bytes), at a place picked by `seed`.
std::string make_hostile(const std::string& text, HostileShape shape, std::size_t size, std::uint32_t seed);

}  // namespace rulebook::fuzz
