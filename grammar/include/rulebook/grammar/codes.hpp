// The stable codes of diagnostics. Every diagnostic carries one, so that scripts, editors and
// CI annotations can tell kinds of error apart without parsing the message, and so that
// `rulebook explain CODE` can give the long explanation. A code, once published, keeps its
// meaning: retire it rather than reuse it.
#pragma once

#include <span>
#include <string_view>

namespace rulebook::grammar {

enum class Code {
  // Syntax.
  kSyntax,
  kTooManySyntaxErrors,
  kNestingTooDeep,
  kIntegerTooLarge,
  kNotUtf8,
  kInternal,
  // Declarations.
  kAlreadyDefined,
  kReservedName,
  kDeclaredTwice,
  kMissingDeclaration,
  kEmptyRange,
  kOverLimit,
  kBadOption,
  kNoSuchLoop,
  kBadPolicy,
  kOverrideOutsideVariant,
  kUnusedDefinition,
  // Names and types.
  kUnknownName,
  kTypeMismatch,
  kArgumentCount,
  kNotCallable,
  kNeedsPile,
  kRecursiveDefinition,
  kReadBeforeSet,
  kExpansionTooLarge,
  // Statements.
  kNotAssignable,
  kNotInSimultaneous,
  kLetZone,
  // Variants and files.
  kUnreadableFile,
  kOverrideTwice,
  kOverrideMissing,
  kVariantLoop,
  // Logs and replay.
  kMalformedLog,
  kLogHeader,
  kWrongPlayer,
  kWrongRule,
  kIllegalChoice,
  kWrongResult,
  kEndedEarly,
  kRuleFault,
};

struct CodeInfo {
  Code code;
  std::string_view id;           // "E0302": E for errors, W for warnings; never reused
  std::string_view title;        // one line
  std::string_view explanation;  // paragraphs, with an example where one helps
};

// Every code, in the order of its id.
std::span<const CodeInfo> all_codes();
const CodeInfo& info(Code code);
// Looks up an id, case-insensitively; nullptr when there is no such code.
const CodeInfo* find_code(std::string_view id);

}  // namespace rulebook::grammar
