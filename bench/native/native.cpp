#include "native.hpp"

#include "rulebook/interpreter/simulate.hpp"

namespace rulebook::native {

std::string option_json(const Choice& choice, std::int32_t option) {
  switch (choice.kind) {
    case OptionKind::kCard:
    case OptionKind::kEnum: return "\"" + (*choice.names)[static_cast<std::size_t>(option)] + "\"";
    case OptionKind::kPlayer: return std::to_string(option);
    case OptionKind::kBool: return option != 0 ? "true" : "false";
    case OptionKind::kPlayerSet: {
      std::string out = "[";
      for (std::int32_t p = 0; p < 32; ++p) {
        if (((option >> p) & 1) == 0) continue;
        if (out.size() > 1) out += ',';
        out += std::to_string(p);
      }
      return out + "]";
    }
  }
  return "null";
}

RandomDriver::RandomDriver(std::uint64_t game_seed) : game_(game_seed), agent_(interpreter::agent_seed(game_seed)) {}

void RandomDriver::shuffle(std::string_view /*zone*/, std::vector<std::int32_t>& cards) { game_.shuffle(cards); }

std::size_t RandomDriver::choose(const Choice& choice) {
  return static_cast<std::size_t>(agent_.below(choice.options->size()));
}

}  // namespace rulebook::native
