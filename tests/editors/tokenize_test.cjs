// Tokenizes every shipped rule file with the VS Code extension's TextMate grammar
// (editors/vscode), through the same libraries VS Code uses (vscode-textmate and
// vscode-oniguruma), and checks the scopes of keywords, comments, strings, cards, rule
// labels and names. The keyword list is read from the PEGTL grammar, so a keyword added to
// the language and not to the editor grammar fails here.
//
// Usage: node tokenize_test.cjs SOURCE_DIR  (with the two packages on NODE_PATH)
'use strict';
const fs = require('fs');
const path = require('path');
const textmate = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

const source = process.argv[2];
if (!source) {
  console.error('usage: node tokenize_test.cjs SOURCE_DIR');
  process.exit(2);
}
const grammarPath = path.join(source, 'editors/vscode/syntaxes/rulebook.tmLanguage.json');

let failures = 0;
let checks = 0;
function check(ok, message) {
  ++checks;
  if (!ok) {
    ++failures;
    if (failures <= 40) console.error('FAIL: ' + message);
  }
}

function ruleFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...ruleFiles(full));
    else if (entry.name.endsWith('.rules')) out.push(full);
  }
  return out.sort();
}

// The reserved words of the language, from grammar/src/grammar.hpp's `reserved` rule.
function reservedWords() {
  const text = fs.readFileSync(path.join(source, 'grammar/src/grammar.hpp'), 'utf8');
  const start = text.indexOf('struct reserved');
  const end = text.indexOf('{};', start);
  const words = [...text.slice(start, end).matchAll(/TAO_PEGTL_KEYWORD\("([a-z0-9_]+)"\)/g)].map((m) => m[1]);
  if (words.length < 50) throw new Error('could not read the reserved words from grammar.hpp');
  return new Set(words);
}

// Where the comment starts: the first '#' outside a string, or -1.
function commentStart(line) {
  let inString = false;
  for (let i = 0; i < line.length; ++i) {
    const c = line[i];
    if (inString && c === '\\') ++i;
    else if (c === '"') inString = !inString;
    else if (c === '#' && !inString) return i;
  }
  return -1;
}

async function main() {
  const wasm = fs.readFileSync(path.join(path.dirname(require.resolve('vscode-oniguruma')), 'onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scopeName) => {
      if (scopeName !== 'source.rulebook') return null;
      return textmate.parseRawGrammar(fs.readFileSync(grammarPath, 'utf8'), grammarPath);
    },
  });
  const grammar = await registry.loadGrammar('source.rulebook');
  check(grammar !== null, 'the grammar loads');

  const reserved = reservedWords();
  const has = (token, prefix) => token.scopes.some((s) => s.startsWith(prefix));
  const highlighted = (token) =>
    ['keyword.', 'storage.', 'constant.', 'support.', 'entity.name.'].some((p) => has(token, p));

  const files = ruleFiles(path.join(source, 'rulesets'));
  check(files.length >= 2, 'rule files found under rulesets/');
  const seen = { keyword: 0, comment: 0, string: 0, card: 0, label: 0, kind: 0 };
  for (const file of files) {
    const name = path.relative(source, file);
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    let stack = textmate.INITIAL;
    lines.forEach((line, i) => {
      const where = `${name}:${i + 1}`;
      const result = grammar.tokenizeLine(line, stack);
      stack = result.ruleStack;
      const tokens = result.tokens.map((t) => ({ text: line.slice(t.startIndex, t.endIndex), start: t.startIndex, scopes: t.scopes }));
      const hash = commentStart(line);
      for (const t of tokens) {
        const inComment = has(t, 'comment.');
        const inString = has(t, 'string.');
        // Comments: from the '#' to the end of the line, and nothing else.
        if (hash >= 0 && t.start >= hash) {
          check(inComment, `${where}: '${t.text}' is in a comment`);
          if (inComment) ++seen.comment;
        } else {
          check(!inComment, `${where}: '${t.text}' is not a comment`);
        }
        if (inComment || inString) continue;
        const word = t.text.trim();
        // Every reserved word is highlighted as a keyword, type, constant or builtin.
        if (reserved.has(word)) {
          check(highlighted(t), `${where}: keyword '${word}' is highlighted (scopes ${t.scopes.join(' ')})`);
          ++seen.keyword;
        } else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(word) && !/^\d/.test(word) && !(word === 'default' && /\.\.\s*\d+\s+default\s+\d/.test(line))) {
          // A name is not a keyword ('default' after a player range is a word of the
          // `players` declaration, and a name anywhere else).
          check(!has(t, 'keyword.'), `${where}: name '${word}' is not a keyword`);
        }
        if (has(t, 'constant.other.card')) ++seen.card;
        if (has(t, 'entity.name.type.card-kind')) ++seen.kind;
      }
      // Strings: the text between quotes is a string.
      for (const m of line.matchAll(/"([^"\\]*)"/g)) {
        if (hash >= 0 && m.index > hash) continue;
        const inside = tokens.filter((t) => t.start > m.index && t.start < m.index + m[0].length - 1);
        check(inside.length > 0 && inside.every((t) => has(t, 'string.quoted.double')), `${where}: "${m[1]}" is a string`);
        ++seen.string;
      }
      // Rule labels: `rule NAME:` names a rule.
      for (const m of line.matchAll(/\brule\s+([A-Za-z_]\w*)\s*:/g)) {
        if (hash >= 0 && m.index > hash) continue;
        const at = m.index + m[0].indexOf(m[1]);
        const t = tokens.find((x) => x.start === at);
        check(t !== undefined && has(t, 'entity.name.function.rule'), `${where}: '${m[1]}' is a rule label`);
        ++seen.label;
      }
      // No line ends inside a string.
      check(!tokens.some((t) => has(t, 'string.') && t.start + t.text.length === line.length && !line.trimEnd().endsWith('"')),
            `${where}: the line does not end inside a string`);
    });
  }
  for (const [what, count] of Object.entries(seen)) check(count > 0, `the rulesets have some ${what} tokens checked`);

  // Exact scopes of a few tokens, as a theme sees them.
  const sample = [
    'game "Sample" # a comment',
    'cards {',
    '  standard52',
    '  jokers 2',
    '  note: notes',
    '}',
    'zone hand(p): set owner',
    'round {',
    '  rule pick: choose c in hand(seat 0) by seat 0 where suit(c) == hearts',
    '}',
  ];
  let stack = textmate.INITIAL;
  const scopesOf = {};
  for (const line of sample) {
    const r = grammar.tokenizeLine(line, stack);
    stack = r.ruleStack;
    for (const t of r.tokens) scopesOf[line.slice(t.startIndex, t.endIndex).trim() + '@' + line] = t.scopes;
  }
  const expect = (text, line, scope) => {
    const scopes = scopesOf[text + '@' + line] || [];
    check(scopes.includes(scope), `'${text}' in '${line}' has ${scope} (has ${scopes.join(' ')})`);
  };
  expect('game', sample[0], 'keyword.other.declaration.rulebook');
  expect('Sample', sample[0], 'string.quoted.double.rulebook');
  expect('a comment', sample[0], 'comment.line.number-sign.rulebook');
  expect('standard52', sample[2], 'constant.other.card.rulebook');
  expect('jokers', sample[3], 'constant.other.card.rulebook');
  expect('note', sample[4], 'entity.name.type.card-kind.rulebook');
  expect('hand', sample[6], 'entity.name.other.declaration.rulebook');
  expect('owner', sample[6], 'storage.type.rulebook');
  expect('pick', sample[8], 'entity.name.function.rule.rulebook');
  expect('choose', sample[8], 'keyword.control.rulebook');
  expect('suit', sample[8], 'support.function.builtin.rulebook');
  expect('hearts', sample[8], 'constant.other.card.rulebook');
  expect('0', sample[8], 'constant.numeric.integer.rulebook');

  console.log(`${checks} checks over ${files.length} rule files, ${failures} failed`);
  process.exit(failures === 0 ? 0 : 1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
