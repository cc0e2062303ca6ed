/**
 * @file tree-sitter grammar for PBN (Portable Bridge Notation) 2.1, import format.
 *
 * Spec references (§) are to PBN 2.1, ../shared/seeds/001_faf97842eac7ec0d.txt.
 *
 * Design (see README.md in this folder for the full rationale):
 * - Games are separated by semi-empty lines (§3). The external scanner
 *   (src/scanner.c) turns one or more semi-empty lines into a `game_break`
 *   token and lexes `%` escape lines in column 0 (§2.4).
 * - Comments (§3.8) and escape lines are extras: they may appear between any
 *   two tokens and are attached to items by the formatter, not the grammar.
 * - Every tag pair is a `tag_pair` node (§3.3). `[Auction]`, `[Play]` and any
 *   other tag followed by section data open an `auction_section`,
 *   `play_section` or `supplemental_section` (§3.5, §3.6, §5). `[Note]` tags
 *   that follow the calls/cards of a section belong to that section
 *   (§3.5.5, §3.6.5).
 * - Tokens are lexed leniently so that the checker can give precise
 *   diagnostics: a call token that is not a legal call is a token of a
 *   `calls` run, a bad card a token of a `cards` run, a NAG with a non-digit an ordinary
 *   `nag`, and so on. Tag values (Deal, Contract, table column specs, ...)
 *   are single `string` tokens whose contents the checker parses itself
 *   (server/src/model/values).
 */

/// <reference types="tree-sitter-cli/dsl" />
// @ts-check

// The call token of §3.2: letters, digits and the hyphen. The
// underscore is accepted too, so that quiz blanks such as `____` (written by
// BridgeComposer) are one token of a `calls` run for the checker to report.
const WORD = /[A-Za-z0-9_-]+/;

// Lexical precedence shared by the call and card runs (`calls`, `cards`)
// and `_word`. Being equal, the longest match wins, as §3.2 asks: `--` or
// `1NTX` is one (invalid) token, not `-` `-` or `1NT` `X`. Being above
// the default 0 (`tag_name`, `section_token`), these tokens stay in
// tree-sitter's error-recovery lexer, so that text inside an ERROR node is
// still lexed as calls and words rather than split into single characters.
const CALL_CARD = 1;

module.exports = grammar({
  name: 'pbn',

  externals: $ => [
    $.game_break,
    $.escape_line,
    $._note_open,
    // Only in error recovery: a long run of one punctuation character (see
    // src/scanner.c), one leaf instead of one per character.
    $.junk,
    // Never in the grammar: valid only while the parser recovers from an
    // error, when every external token is.
    $._error_sentinel,
  ],

  extras: $ => [
    /\s/,
    $.comment,
    $.unterminated_comment,
    $.escape_line,
  ],

  // After the calls (cards) of a section, `[` may open one of its Note tags
  // or the next item of the game: only the tag name tells. The external
  // scanner tells them apart (`_note_open`, see src/scanner.c), so the
  // grammar is LR(1): no conflicts, no GLR, nodes reusable by incremental
  // reparsing.

  // Choices of tokens are inlined: each call run, card run or annotation reduces
  // straight into its section (measurably faster than supertypes).
  inline: $ => [
    $._call,
    $._card,
    $._annotation,
    $._auction_element,
    $._play_element,
    $._section_element,
    $._tag_value,
  ],


  rules: {
    // §3: zero or more games, separated by semi-empty lines.
    document: $ => repeat(choice($.game, $.game_break)),

    game: $ => prec.right(repeat1(choice(
      $.tag_pair,
      $.auction_section,
      $.play_section,
      $.supplemental_section,
    ))),

    // §3.3: four tokens, any white space (and, leniently, comments) between.
    tag_pair: $ => seq(
      '[',
      field('name', $.tag_name),
      optional(field('value', $._tag_value)),
      ']',
    ),

    // §3.2 name token. Upper-case first letter is a checker rule (§3.3).
    tag_name: _ => /[A-Za-z0-9_]+/,

    // §3.2 string token: `\"` and `\\` escapes; no line breaks.
    string: _ => /"([^"\\\r\n]|\\[^\r\n])*"/,

    // A string that reaches the end of its line without the closing quote.
    // Kept as its own leaf so that the checker can point at it and the next
    // line is parsed normally.
    unterminated_string: _ => /"([^"\\\r\n]|\\[^\r\n])*\\?/,

    // A bare word where a string belongs (`[Event No_quotes]`).
    unquoted_value: _ => token(prec(-2, /[^\s\[\]"{};%]+/)),

    // The value is optional in the tree so that `[Event]` or `[Event x]` stay
    // one small tag pair; the checker reports them (§3.3).
    _tag_value: $ => choice($.string, $.unterminated_string, $.unquoted_value),

    // §3.5 auction section: the Auction tag, calls with annotations, then the
    // auction notes (§3.5.5).
    auction_section: $ => seq(
      field('tag', alias($._auction_tag, $.tag_pair)),
      repeat($._auction_element),
      repeat(field('note', alias($._note_tag, $.tag_pair))),
    ),

    _auction_tag: $ => seq(
      '[',
      field('name', alias('Auction', $.tag_name)),
      optional(field('value', $._tag_value)),
      ']',
    ),

    _auction_element: $ => choice(
      $._call,
      $._annotation,
      $.terminator,
      $.continuation,
    ),

    // §3.5.1 calls: one `calls` node holds a run of call tokens on one line
    // with the spaces and tabs between them: the `cards` token (below),
    // named `calls` here. With a leaf per call, a long auction line took a
    // node per call. The §3.2 tokens are the run's white-space separated
    // parts, exactly those that one token per call would give (`1NTX` or
    // `--` stays one token); an annotation, a comment, `*`, `+` or the line
    // end ends the run. `syntax::section_cells` splits a run and
    // `syntax::call_cell` tells a bid, `Pass`, `X`, `XX`, `AP` or `-` (any
    // case, §3.11) from any other token, which the checker reports. One token
    // for both runs (not two equal ones) keeps error recovery as it was with a
    // token per call: inside an ERROR node a run shows as `cards`.
    _call: $ => choice(alias($.cards, $.calls), alias($._word, $.calls)),

    // §3.6 play section: the Play tag, cards with annotations, then the play
    // notes (§3.6.5).
    play_section: $ => seq(
      field('tag', alias($._play_tag, $.tag_pair)),
      repeat($._play_element),
      repeat(field('note', alias($._note_tag, $.tag_pair))),
    ),

    _play_tag: $ => seq(
      '[',
      field('name', alias('Play', $.tag_name)),
      optional(field('value', $._tag_value)),
      ']',
    ),

    _play_element: $ => choice(
      $._card,
      $._annotation,
      $.terminator,
      $.continuation,
    ),

    // §3.6.1 cards: one `cards` node holds a run of card tokens on one line
    // (letters, digits, hyphen, and leniently `_`, as WORD) with the spaces
    // and tabs between them, as `section_token` does for table rows. With a
    // leaf per card, play sections took a third of the parse; with one per
    // run the whole parse needs a fifth fewer instructions (BENCHMARKS.md,
    // parse notes). A run
    // starts and ends with a token character, so the §3.2 tokens are its
    // white-space separated parts, exactly those that one token per card
    // would give (`SKX` or `--` stays one token); an annotation, a comment,
    // `*`, `+` or the line end ends the run. `syntax::section_cells` splits
    // a run and `syntax::card_cell` tells a legal card (`[SHDC][AKQJT2-9]`,
    // either case) from `-` and from any other token, which the checker
    // reports (server/src/syntax/mod.rs).
    _card: $ => choice($.cards, alias($._word, $.cards)),

    cards: _ => token(prec(CALL_CARD, /[A-Za-z0-9_-]+([ \t\x0B\x0C]+[A-Za-z0-9_-]+)*/)),

    // Any other call token (§3.2): `1N`, `P`, `HHT`, `--`, `1NTX`.
    // See CALL_CARD for why it must be defined after the legal tokens.
    _word: _ => token(prec(CALL_CARD, WORD)),

    // A Note tag right after the calls (cards) of a section belongs to the
    // section (§3.5.5, §3.6.5). Its `[` is the scanner's `_note_open`, lexed
    // only where a section note may follow and only before the name `Note`.
    _note_tag: $ => seq(
      alias($._note_open, '['),
      field('name', alias('Note', $.tag_name)),
      optional(field('value', $._tag_value)),
      ']',
    ),

    // §3.5.2-§3.5.4, §3.6.2-§3.6.4, §3.7, §3.9 annotations.
    _annotation: $ => choice(
      $.suffix,
      $.note_ref,
      $.nag,
      $.irregularity,
    ),

    // §3.5.3: one or two of `!` `?`; `!!!` is two suffix tokens.
    suffix: _ => /[!?][!?]?/,
    // §3.5.4 `=n=`; the checker validates the digits and the range 1..32.
    note_ref: _ => /=[^=\s\[\]{};"%]*=/,
    // §3.7 `$n`; the checker validates the digits and the range 0..255.
    nag: _ => /\$[A-Za-z0-9]*/,
    // §3.9 `^I` `^S` `^R` `^L`; the checker validates letter and section.
    irregularity: _ => /\^[A-Za-z]/,

    // §3.5/§3.6 `*`: no further calls/cards; `+`: to be continued.
    terminator: _ => '*',
    continuation: _ => '+',

    // §5: any other tag followed by section data (tables, user sections).
    supplemental_section: $ => prec.right(seq(
      field('tag', $.tag_pair),
      repeat1($._section_element),
    )),

    _section_element: $ => choice(
      $.section_token,
      $.string,
    ),

    // §3.2 section tokens: printing characters except []{};"% (leniently any
    // non-space character, so that stray Latin-1 letters are diagnosed by the
    // checker rather than lost in an ERROR node). One `section_token` node
    // covers a run of them on one line with the white space between them; it
    // starts and ends with a token character. So a table row (§5) is one leaf
    // instead of one per cell: fewer nodes and a cheaper parse (see
    // BENCHMARKS.md). A string, a comment, a bracket, a `%` or the line end
    // ends the run. `syntax::section_cells` (server/src/syntax/mod.rs) splits
    // a run into its §3.2 tokens at the white space of `\s` (in tree-sitter:
    // space, tab, vertical tab, form feed; no line end can occur in a run).
    // The run holds exactly the tokens that one token per cell would give: a
    // NUL character may not start a token (tree-sitter's lexer takes it for
    // the end of the input there) but may continue one.
    section_token: _ => /[^\x00\s\[\]{};"%][^\s\[\]{};"%]*([ \t\x0B\x0C]+[^\x00\s\[\]{};"%][^\s\[\]{};"%]*)*/,

    // §3.8: `;` to the end of the line, or `{` to the next `}` (no nesting,
    // may span lines, may contain semi-empty lines).
    comment: _ => token(choice(
      /;[^\r\n]*/,
      /\{[^}]*\}/,
    )),

    // A `{` comment with no closing `}`: by §3.8 it would run to the end of
    // the file; it is cut at the next semi-empty line instead so that the
    // following games survive. The checker reports it. Semi-empty means
    // spaces and tabs, vertical tabs and form feeds included, as in the
    // external scanner (src/scanner.c, `is_hspace`).
    unterminated_comment: _ => /\{([^}\r\n]|(\r\n|\r|\n)[ \t\v\f]*[^}\s])*/,
  },
});
