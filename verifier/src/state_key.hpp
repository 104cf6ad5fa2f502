// The key of a visited state in the explicit search (search.cpp): a 128-bit hash of the
// state's words. Apart from search.cpp for size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rulebook::verifier::state_key {

// Two independent 64-bit lanes over the words: a collision of both, among the few million
// states a search can hold, has a chance far below any other failure.
struct Key {
  std::uint64_t low = 0;
  std::uint64_t high = 0;
  bool operator==(const Key&) const = default;
};
struct KeyHash {
  std::size_t operator()(const Key& key) const { return static_cast<std::size_t>(key.low); }
};

inline std::uint64_t finalize(std::uint64_t x) {  // the SplitMix64 / MurmurHash3 finalizer
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

inline Key key_of(const std::vector<std::uint64_t>& words) {
  std::uint64_t low = 0x243f6a8885a308d3ULL ^ words.size();
  std::uint64_t high = 0x13198a2e03707344ULL;
  for (const std::uint64_t w : words) {
    low = finalize(low ^ w);
    high = (high ^ (w * 0x9fb21c651e98df25ULL)) * 0xc2b2ae3d27d4eb4fULL;
    high = (high << 31) | (high >> 33);
  }
  return Key{low, finalize(high + words.size())};
}

}  // namespace rulebook::verifier::state_key
