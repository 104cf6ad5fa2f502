// libFuzzer entry: see targets.hpp.
#include <cstddef>
#include <cstdint>

#include "fuzz/targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  rulebook::fuzz::rules_one(data, size);
  return 0;
}
