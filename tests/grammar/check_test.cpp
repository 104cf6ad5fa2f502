// Resolution, type checking and variant composition on whole files: the shipped rulesets
// check clean, variants change what they override and nothing else.
#include <catch2/catch.hpp>

#include <filesystem>

#include "rulebook/grammar/dump.hpp"
#include "rulebook/grammar/load.hpp"
#include "support.hpp"

namespace g = rulebook::grammar;
using rulebook::test::check_text;
using rulebook::test::source_path;

namespace grammar_check_test {  // this file's own names (unity builds put several files in one)
namespace {

struct Loaded {
  g::SourceManager sources;
  g::Diagnostics diagnostics;
  g::LoadResult result;
};

Loaded load(const std::string& path) {
  Loaded l;
  l.result = g::load_ruleset(path, l.sources, l.diagnostics);
  return l;
}

std::string rendered(const Loaded& l) {
  std::string out;
  for (const g::Diagnostic& d : l.diagnostics.items()) out += g::render_text(d, l.sources, false);
  return out;
}

const g::ast::OptionDecl* find_option(const g::Program& program, const std::string& name) {
  for (const g::ast::Decl& d : program.file.decls) {
    const auto* o = std::get_if<g::ast::OptionDecl>(&d.node);
    if (o != nullptr && o->name.text == name) return o;
  }
  return nullptr;
}

std::string round_dump(const g::Program& program) {
  for (const g::ast::Decl& d : program.file.decls) {
    if (const auto* r = std::get_if<g::ast::RoundDecl>(&d.node)) {
      std::string out;
      for (const g::ast::Stmt& s : r->body.stmts) out += g::dump_stmt(s) + "\n";
      return out;
    }
  }
  return {};
}

}  // namespace

TEST_CASE("check: every shipped ruleset and variant checks with no error and no warning", "[check]") {
  const auto files = rulebook::test::rule_files(source_path("rulesets"));
  REQUIRE(files.size() >= 2);
  for (const std::string& path : files) {
    DYNAMIC_SECTION(path) {
      const Loaded l = load(path);
      INFO(rendered(l));
      CHECK(l.result.status == g::LoadStatus::kOk);
      CHECK(l.diagnostics.items().empty());
    }
  }
}

TEST_CASE("check: both rulebooks' games are shipped with their player ranges", "[check]") {
  const Loaded molestation = load(source_path("rulesets/molestation-game.rules"));
  REQUIRE(molestation.result.program);
  CHECK(molestation.result.program->players_min == 2);
  CHECK(molestation.result.program->players_max == 4);
  CHECK(molestation.result.program->seats == 4);
  const Loaded clusterfk = load(source_path("rulesets/clusterfk.rules"));
  REQUIRE(clusterfk.result.program);
  CHECK(clusterfk.result.program->players_min == 4);
  CHECK(clusterfk.result.program->players_max == 8);
  CHECK(find_option(*clusterfk.result.program, "chlamydia") != nullptr);
  CHECK(find_option(*clusterfk.result.program, "ogling") != nullptr);
}

TEST_CASE("check: every rulebook gap is marked with an interpretation comment", "[check]") {
  // READING.md asks for each silent point to be an explicit, marked choice.
  for (const char* name : {"rulesets/molestation-game.rules", "rulesets/clusterfk.rules"}) {
    const std::string text = rulebook::test::read_text(source_path(name));
    std::size_t count = 0;
    for (std::size_t at = text.find("# interpretation:"); at != std::string::npos;
         at = text.find("# interpretation:", at + 1)) {
      ++count;
    }
    INFO(name);
    CHECK(count >= 8);
  }
}

TEST_CASE("check: a variant overrides an option's default and keeps the rest of its base", "[check][variant]") {
  const std::string dir = rulebook::test::temp_folder();
  rulebook::test::write_text(dir + "/base.rules",
                             "game \"base\"\nplayers 2\ncards { standard52 }\n"
                             "option rounds: int = 3 in 1..10\nvar played: int = 0\n"
                             "round {\n  add 1 to played\n  rule finish: if played >= rounds {\n    end game\n  }\n}\n");
  rulebook::test::write_text(dir + "/quick.rules",
                             "variant \"quick\" of \"base.rules\"\noverride option rounds = 1\n");
  const Loaded base = load(dir + "/base.rules");
  const Loaded quick = load(dir + "/quick.rules");
  INFO(rendered(quick));
  REQUIRE(base.result.program);
  REQUIRE(quick.result.program);
  CHECK(g::dump_expr(find_option(*base.result.program, "rounds")->default_value) == "3");
  CHECK(g::dump_expr(find_option(*quick.result.program, "rounds")->default_value) == "1");
  CHECK(quick.result.program->file.title == "quick");
  CHECK(quick.result.program->base_title == "base");
  CHECK(round_dump(*quick.result.program) == round_dump(*base.result.program));
  std::filesystem::remove_all(dir);
}

TEST_CASE("check: a variant replaces a labelled rule wherever it is nested", "[check][variant]") {
  const std::string dir = rulebook::test::temp_folder();
  rulebook::test::write_text(dir + "/base.rules",
                             "game \"base\"\nplayers 2\ncards { standard52 }\nvar played: int = 0\n"
                             "round {\n  repeat 2 {\n    rule step: add 1 to played\n  }\n  end game\n}\n");
  rulebook::test::write_text(dir + "/double.rules",
                             "variant \"double\" of \"base.rules\"\noverride rule step: add 2 to played\n"
                             "invariant bounded: played <= 4\n");
  rulebook::test::write_text(dir + "/triple.rules",
                             "variant \"triple\" of \"double.rules\"\noverride rule step: add 3 to played\n");
  const Loaded doubled = load(dir + "/double.rules");
  INFO(rendered(doubled));
  REQUIRE(doubled.result.program);
  CHECK(round_dump(*doubled.result.program) == "(repeat 2 { (rule step (add 2 played)) })\n(end-game)\n");
  // The variant's new declaration is added to the composed ruleset.
  CHECK(g::dump_ast(doubled.result.program->file).find("(invariant bounded (<= played 4))") != std::string::npos);
  // A variant of a variant composes in order.
  const Loaded tripled = load(dir + "/triple.rules");
  REQUIRE(tripled.result.program);
  CHECK(round_dump(*tripled.result.program) == "(repeat 2 { (rule step (add 3 played)) })\n(end-game)\n");
  std::filesystem::remove_all(dir);
}

TEST_CASE("check: an override is type checked in the composed ruleset", "[check][variant]") {
  const std::string dir = rulebook::test::temp_folder();
  rulebook::test::write_text(dir + "/base.rules",
                             "game \"base\"\nplayers 2\ncards { standard52 }\noption rounds: int = 3\n"
                             "round {\n  rule finish: if rounds > 1 {\n    end game\n  }\n}\n");
  rulebook::test::write_text(dir + "/bad.rules",
                             "variant \"bad\" of \"base.rules\"\noverride option rounds = true\n");
  const Loaded bad = load(dir + "/bad.rules");
  CHECK(bad.result.status == g::LoadStatus::kErrors);
  const std::string text = rendered(bad);
  CHECK(text.find("bad.rules:2:26: error: type mismatch in option default: expected int, but this is bool") !=
        std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("check: several meaning errors are reported in one run", "[check]") {
  const std::string text = check_text(
      "game \"t\"\nplayers 2\ncards { standard52 }\nvar n: int = 0\n"
      "round {\n  set n := true\n  set m := 1\n  end game winners n\n}\n");
  CHECK(text.find("test.rules:6:7: error: type mismatch in assignment") != std::string::npos);
  CHECK(text.find("test.rules:7:7: error: unknown name 'm'; did you mean 'n'?") != std::string::npos);
  CHECK(text.find("test.rules:8:20: error: type mismatch in winners") != std::string::npos);
}

TEST_CASE("check: a chosen name is visible after the choice and in its filter only", "[check]") {
  CHECK(check_text("game \"t\"\nplayers 2\ncards { standard52 }\nzone hand(p): set owner\nvar n: int = 0\n"
                   "round {\n  choose c in hand(seat 0) by seat 0 where rank(c) > 2\n  set n := rank(c)\n"
                   "  end game\n}\n") == "");
  const std::string text = check_text(
      "game \"t\"\nplayers 2\ncards { standard52 }\nzone hand(p): set owner\nvar n: int = 0\n"
      "round {\n  if true {\n    choose c in hand(seat 0) by seat 0\n  }\n  set n := rank(c)\n  end game\n}\n");
  CHECK(text.find("test.rules:10:17: error: 'c' is out of scope here") != std::string::npos);
}

TEST_CASE("check: policies are typed against the choice they answer", "[check]") {
  const std::string base =
      "game \"t\"\nplayers 2\nseats 3\ncards { standard52 }\nzone hand(p): set owner\n"
      "round {\n  rule pick: choose c in hand(seat 0) by seat 0\n  end game\n}\n";
  CHECK(check_text(base + "policy dummy {\n  pick: first c in legal\n}\n") == "");
  const std::string text = check_text(base + "policy dummy {\n  pick: chooser\n}\n");
  CHECK(text.find("test.rules:11:9: error: type mismatch in policy choice: expected card, but this is player") !=
        std::string::npos);
}

}  // namespace grammar_check_test
