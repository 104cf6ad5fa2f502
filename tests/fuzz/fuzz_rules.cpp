// libFuzzer entry: see targets.hpp. The custom mutator mixes libFuzzer's byte mutations with
// the hostile shapes of hostile.hpp, which byte mutations alone would take a very long time
// to build (a chain of hundreds of operators, a type nested hundreds deep).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>

#include "fuzz/hostile.hpp"
#include "fuzz/targets.hpp"

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed) {
  // Three mutations in four are libFuzzer's own.
  if (seed % 4 != 0) return LLVMFuzzerMutate(data, size, max_size);
  std::minstd_rand random(seed);
  const auto shape = static_cast<rulebook::fuzz::HostileShape>((seed / 4) % rulebook::fuzz::kHostileShapes);
  // Sizes on both sides of the limits (hundreds of levels), halved until the result fits.
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (std::size_t times = 1 + random() % 800; times > 0; times /= 2) {
    const std::string out = rulebook::fuzz::make_hostile(text, shape, times, static_cast<std::uint32_t>(random()));
    if (out.size() <= max_size) {
      std::memcpy(data, out.data(), out.size());
      return out.size();
    }
  }
  return LLVMFuzzerMutate(data, size, max_size);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  rulebook::fuzz::rules_one(data, size);
  return 0;
}
