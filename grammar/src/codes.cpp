// The catalogue of diagnostic codes and their explanations (`rulebook explain CODE`).
#include "rulebook/grammar/codes.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace rulebook::grammar {

namespace {

constexpr std::array kCodes{
    CodeInfo{Code::kSyntax, "E0101", "syntax error",
             "The parser expected one thing and found another. The message names what was expected\n"
             "at that point (\"expected '}' to close the block\") and the token found instead.\n"
             "\n"
             "After an error the parser skips to the next statement or declaration and goes on, so\n"
             "one run reports every independent syntax error; later errors in the same statement\n"
             "are not reported. docs/language.md gives the grammar."},
    CodeInfo{Code::kTooManySyntaxErrors, "E0102", "too many syntax errors",
             "The parser stops after a fixed number of syntax errors in one file, since the errors\n"
             "after that are usually echoes of the first ones. Fix the first errors and check again."},
    CodeInfo{Code::kNestingTooDeep, "E0103", "nesting too deep",
             "Blocks, parentheses, types ('set of set of ...'), labels ('rule a: rule b: ...') and\n"
             "other nested constructs may be nested at most 200 levels deep. An expression's tree\n"
             "may be at most 500 levels deep, and each operator of a chain such as 'a + b + c'\n"
             "is a level of it, since 'a + b + c' means '(a + b) + c'. The limits keep the stack of\n"
             "the parser and of every pass after it bounded on any input. A rule file written by\n"
             "hand never comes near them; a generated one should use definitions ('def') to split\n"
             "a long chain or to name an expression instead of repeating it inside itself."},
    CodeInfo{Code::kIntegerTooLarge, "E0104", "integer literal too large",
             "Integer literals may be at most 1,000,000,000. Arithmetic is 64-bit and checked, so\n"
             "larger values can still be computed; a literal this large is almost always a typing\n"
             "error."},
    CodeInfo{Code::kNotUtf8, "E0105", "rule file not UTF-8",
             "Rule files are UTF-8 text (plain ASCII is UTF-8 too). The file has a byte that is not\n"
             "part of valid UTF-8, shown escaped (\\xff); usually the file was saved in another\n"
             "encoding, such as Latin-1 or UTF-16. Save it as UTF-8; a byte-order mark at the\n"
             "start is allowed."},
    CodeInfo{Code::kInternal, "E0199", "internal error",
             "The front end met a parse tree it does not know. This is a bug in rulebook, not in\n"
             "the rule file: please report it with the file that causes it."},

    CodeInfo{Code::kAlreadyDefined, "E0201", "name defined twice",
             "Each name (zone, variable, option, enum, enum value, definition, invariant, rule\n"
             "label, parameter, policy entry) may be defined once. The note points at the first\n"
             "definition. Rename one of them, or in a variant use 'override' to change the base\n"
             "ruleset's definition.\n"
             "\n"
             "    zone deck: pile hidden\n"
             "    zone deck: pile hidden     # E0201: 'deck' is already defined\n"
             "\n"
             "Card names count too: a card is named by its kind and a number (note1, note2, ...;\n"
             "jokers JK1, JK2, ...), and game logs name cards, so a kind may not be another kind's\n"
             "name followed by digits (kinds 'note' and 'note1' would both have a card note11),\n"
             "nor 'JK' or 'JK' and digits when the deck has jokers."},
    CodeInfo{Code::kReservedName, "E0202", "reserved name",
             "The name belongs to a builtin function (count, top, min, ...) or to an enum value,\n"
             "and cannot be defined again or used as a local name, since every later use would be\n"
             "ambiguous. Choose another name."},
    CodeInfo{Code::kDeclaredTwice, "E0203", "declaration given twice",
             "A ruleset has at most one 'players', 'seats', 'cards', 'setup', 'round' and 'policy'\n"
             "declaration. The note points at the first one; merge the two."},
    CodeInfo{Code::kMissingDeclaration, "E0204", "required declaration missing",
             "A game needs a 'players' declaration (for example 'players 2..4'), a 'cards'\n"
             "declaration and a 'round' block. The error points at the title, since the\n"
             "declaration has no place of its own."},
    CodeInfo{Code::kEmptyRange, "E0205", "empty range or list",
             "A range such as 'players 4..2' or an option range '5..1' holds no value, or a card\n"
             "list is empty. Write the lower bound first; a player range starts at 1 or more. A default\n"
             "player count lies inside the range: 'players 2..10 default 4'."},
    CodeInfo{Code::kOverLimit, "E0206", "over a supported limit",
             "The engine supports at most 64 players and 64 seats, and at most 8 jokers. Seats\n"
             "must be at least as many as the most players the ruleset allows."},
    CodeInfo{Code::kBadOption, "E0207", "bad option declaration",
             "An option is int, bool or an enum; only an int option may have a range, and its\n"
             "default must lie inside the range.\n"
             "\n"
             "    option rounds: int = 12 in 1..10   # E0207: the default is outside the range"},
    CodeInfo{Code::kNoSuchLoop, "E0208", "'terminates' names no loop",
             "A 'terminates' claim names the loop it is about: 'game', 'round' or the label of a\n"
             "repeat, while, until or for rule. The verifier proves the claim, so it has to know\n"
             "which loop is meant."},
    CodeInfo{Code::kBadPolicy, "E0209", "bad policy entry",
             "A policy entry names a labelled rule that makes a choice ('choose'); the rule must\n"
             "exist and be a choice, and each rule may have one entry."},
    CodeInfo{Code::kOverrideOutsideVariant, "E0210", "'override' outside a variant",
             "'override' changes a declaration of the base ruleset, so it is only allowed in a\n"
             "variant file ('variant \"name\" of \"base.rules\"'). In a game file, edit the\n"
             "declaration itself."},
    CodeInfo{Code::kUnusedDefinition, "W0211", "definition never used",
             "A 'def' that nothing refers to. It is a warning, not an error: the ruleset still\n"
             "runs. Remove the definition, or use it where it was meant to be used."},

    CodeInfo{Code::kUnknownName, "E0301", "unknown name",
             "The name is not a zone, variable, option, enum value, definition, builtin or local\n"
             "name in scope. When a defined name is close in spelling the message suggests it.\n"
             "Local names (from 'for each', 'let', 'choose') exist only inside their block."},
    CodeInfo{Code::kTypeMismatch, "E0302", "type mismatch",
             "An expression has a type the place does not accept: a condition must be bool, an\n"
             "assignment must keep the variable's type, 'move' takes cards and a zone, the two\n"
             "sides of a comparison must have one type, a set holds elements of one type, and so\n"
             "on. The message names both types.\n"
             "\n"
             "    var n: int = 0\n"
             "    set n := true              # E0302: 'n' is int, but the value is bool"},
    CodeInfo{Code::kArgumentCount, "E0303", "wrong number of arguments",
             "A builtin or a definition was called with too few or too many arguments, or a name\n"
             "that takes none was called, or a per-player zone or variable was used without its\n"
             "player: write hand(p), not hand."},
    CodeInfo{Code::kNotCallable, "E0304", "not callable",
             "A local name holds a value, not a function, and cannot be called."},
    CodeInfo{Code::kNeedsPile, "E0305", "needs a pile",
             "top, bottom, 'at top', 'at bottom' and the walks 'bottom to top' and 'top to\n"
             "bottom' need an ordered zone, a pile; the zone is declared as an unordered set.\n"
             "Declare the zone as a pile if its order matters."},
    CodeInfo{Code::kRecursiveDefinition, "E0306", "recursive definition",
             "A definition refers to itself, directly or through other definitions. Definitions\n"
             "are expanded where they are used, so recursion would never end; use a quantifier\n"
             "('any', 'all'), a comprehension or a loop in a rule instead."},
    CodeInfo{Code::kReadBeforeSet, "E0307", "read before it has a value",
             "Variables get their initial values one at a time, in the order they are declared\n"
             "(and per-round variables are reset in that order when a round starts). An initial\n"
             "value that reads the variable itself, or one declared after it (directly or\n"
             "through a definition), would read it before it has a value. Declare the variable\n"
             "it reads first:\n"
             "\n"
             "  var a: int = 5\n"
             "  var b: int = a + 1"},
    CodeInfo{Code::kExpansionTooLarge, "E0308", "definitions expand too far",
             "Definitions are expanded where they are used: the interpreter inlines them and the\n"
             "verifier encodes each call as the definition's body. A definition that calls another\n"
             "twice, which calls another twice, and so on, doubles at every layer: forty layers are\n"
             "a few lines of text but a trillion nodes once expanded, which no command could run.\n"
             "One expression may expand to at most 100,000 nodes and 500 levels of nesting, and\n"
             "the calls of the whole ruleset to at most 1,000,000 nodes. The error points at the\n"
             "expression that passes a limit and the note at the largest definition in it. Compute\n"
             "a shared value once, with 'let' in a rule or a variable, instead of calling the same\n"
             "definition again and again."},

    CodeInfo{Code::kNotAssignable, "E0401", "cannot assign",
             "Only variables declared with 'var' change during a game. Options are fixed for the\n"
             "whole game, and local names, enum values and definitions cannot be assigned.\n"
             "'add' needs an int variable."},
    CodeInfo{Code::kNotInSimultaneous, "E0402", "not allowed in a simultaneous block",
             "A 'simultaneous for each' block only collects secret choices, which are revealed\n"
             "together when the block ends. A statement that changes the state (move, set, ...)\n"
             "would act before every choice is made; act on the choices after the block."},
    CodeInfo{Code::kLetZone, "E0403", "'let' names a zone",
             "'let' names a value, and a zone is a place, not a value: its cards change as the\n"
             "game goes on. Name the cards with a set comprehension, or write the zone where it\n"
             "is used."},

    CodeInfo{Code::kUnreadableFile, "E0501", "cannot read a file",
             "A rule file, or the base ruleset a variant names, could not be read: it does not\n"
             "exist, is not readable, is a folder, or is larger than the limit in\n"
             "docs/language.md. A variant's base path is relative to the variant's folder."},
    CodeInfo{Code::kOverrideTwice, "E0502", "overridden twice",
             "A variant overrides the same option, definition or rule twice; the note points at\n"
             "the first override. Keep one."},
    CodeInfo{Code::kOverrideMissing, "E0503", "override of something the base does not have",
             "A variant overrides an option, definition or labelled rule that its base ruleset\n"
             "does not declare. The message suggests a close name when there is one; otherwise\n"
             "check the base ruleset's spelling."},
    CodeInfo{Code::kVariantLoop, "E0504", "variant chain loops",
             "Variants may build on variants, but the chain must end in a game file and be at\n"
             "most a fixed depth; this one comes back to a file already in the chain or is too\n"
             "deep."},

    CodeInfo{Code::kMalformedLog, "E0601", "malformed log",
             "A line of the log is not JSON, not an object, not a known kind of line, or lacks a\n"
             "field its kind needs; or a value is of the wrong type (a number where an enum\n"
             "value is asked) or names what the game does not have (a card, a seat, a zone);\n"
             "or the header contradicts itself (more names than players without \"seats\"),\n"
             "or a shuffle gives both \"cards\" and \"top\". docs/log-format.md describes the\n"
             "format. A malformed log is bad input (exit 2), not an illegal game."},
    CodeInfo{Code::kLogHeader, "W0602", "log header does not match",
             "The log's header disagrees with the rules or the command line: another ruleset's\n"
             "title or hash, an unknown key, or an option the command line overrides. Replay\n"
             "goes on with the rules given; the warning says what differs."},
    CodeInfo{Code::kWrongPlayer, "E0603", "not this player's move",
             "The log has a player choose where the rules wait for someone else. The notes show\n"
             "where the rules ask and what is legal there."},
    CodeInfo{Code::kWrongRule, "E0604", "choice in another rule",
             "The log names a rule (by its label) other than the one the rules ask in at this\n"
             "step. Often the log was written for another version of the ruleset."},
    CodeInfo{Code::kIllegalChoice, "E0605", "illegal choice",
             "The choice the log records is not among those the rule allows here, or differs\n"
             "from the one the policy makes for an automated seat. The notes say why: the\n"
             "first condition of the rule's filter (or of a definition it calls) that is false\n"
             "for the choice, with the values of its names, or the zone a card is in instead;\n"
             "and they list the legal choices. (A choice of the wrong type is a malformed log,\n"
             "E0601.)"},
    CodeInfo{Code::kWrongResult, "E0606", "recorded result differs",
             "The log's end line gives winners, scores or a number of rounds or steps that the\n"
             "rules do not give after the same moves."},
    CodeInfo{Code::kEndedEarly, "E0607", "log ends the game too early",
             "The log says the game ended, or stopped with a rule fault, while the rules are\n"
             "still waiting for a choice."},
    CodeInfo{Code::kRuleFault, "E0608", "rule fault",
             "Following the log, the rules reach a state they do not define: a draw from an empty\n"
             "zone, a choice with no option, integer overflow, a loop over its step limit. The\n"
             "notes show where and whether the log records the same fault. `rulebook verify` can\n"
             "prove that no game reaches such a state."},
};

constexpr bool codes_in_enum_order() {
  for (std::size_t i = 0; i < kCodes.size(); ++i) {
    if (static_cast<std::size_t>(kCodes[i].code) != i) return false;
  }
  return true;
}
static_assert(codes_in_enum_order() && kCodes.size() == static_cast<std::size_t>(Code::kRuleFault) + 1,
              "kCodes lists every Code once, in the enum's order");

}  // namespace

std::span<const CodeInfo> all_codes() { return kCodes; }

const CodeInfo& info(Code code) { return kCodes[static_cast<std::size_t>(code)]; }

const CodeInfo* find_code(std::string_view id) {
  const auto same = [](std::string_view a, std::string_view b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
      return std::toupper(static_cast<unsigned char>(x)) == std::toupper(static_cast<unsigned char>(y));
    });
  };
  for (const CodeInfo& c : kCodes) {
    if (same(c.id, id)) return &c;
  }
  return nullptr;
}

}  // namespace rulebook::grammar
