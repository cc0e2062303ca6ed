//! PBN00xx: syntax (what tree-sitter-pbn could not read).

use super::codes;

codes! {
    SYNTAX_ERROR = "PBN0001", "syntax-error", Error, Syntax, "§3.2",
        "text that is not a PBN token here",
        "The parser found characters that do not form a PBN token at this place \
         (§3.2 lists the tokens: brackets, names, strings, calls, cards, suffixes, \
         note references, NAGs, `*`, `+`, irregularities and section tokens). Free text \
         belongs in a `{…}` or `;` comment (§3.8). A `}` with no `{` before it usually \
         means a brace comment contained another `}`: brace comments do not nest.",
        bad: "[Dealer \"N\"]\n[Auction \"N\"]\n1C (alert) AP\n",
        good: "[Dealer \"N\"]\n[Auction \"N\"]\n1C {alert} AP\n";
    MISSING_TOKEN = "PBN0002", "missing-token", Error, Syntax, "§3.3",
        "a required token is missing",
        "A tag pair is composed of four consecutive tokens: a left bracket, a name, a \
         string and a right bracket (§3.3). The parser inserted the missing token to \
         continue; the tag is read as if it were there.",
        bad: "[Event \"x\"\n",
        good: "[Event \"x\"]\n";
    UNTERMINATED_STRING = "PBN0003", "unterminated-string", Error, Syntax, "§3.2",
        "string without its closing quote",
        "A string token is delimited by a pair of quote characters and cannot cross a \
         line boundary (§3.2: tokens do not cross line boundaries; newline is not \
         permitted inside strings). This string reaches the end of its line without \
         a closing `\"`. A quote inside a string is written `\\\"`.",
        bad: "[Note \"1:forcing]\n",
        good: "[Note \"1:forcing\"]\n";
    UNTERMINATED_COMMENT = "PBN0004", "unterminated-comment", Error, Syntax, "§3.8",
        "brace comment without its closing `}`",
        "A brace comment continues to the next right brace (§3.8). This one has no \
         closing `}` before the next semi-empty line; by the letter of the spec it would \
         swallow the rest of the file. It is read up to the semi-empty line, and the \
         fix closes it there.",
        bad: "{ a comment\n\n[Event \"x\"]\n",
        good: "{ a comment }\n\n[Event \"x\"]\n";
    MISSING_TAG_VALUE = "PBN0005", "missing-tag-value", Error, Syntax, "§3.3",
        "tag pair without a value",
        "A tag pair is a left bracket, a tag name, a string (the tag value) and a right \
         bracket (§3.3). This tag has no string. Use `\"\"` for an empty value or `\"?\"` \
         for an unknown one (§3.4).",
        bad: "[Event]\n",
        good: "[Event \"\"]\n";
    UNQUOTED_TAG_VALUE = "PBN0006", "unquoted-tag-value", Error, Syntax, "§3.3",
        "tag value is not a quoted string",
        "The tag value must be a string token, delimited by quote characters (§3.2, \
         §3.3). The bare word is read as the value.",
        bad: "[Event No_quotes]\n",
        good: "[Event \"No_quotes\"]\n";
    GAME_TOO_LONG = "PBN0007", "game-too-long", Error, Syntax, "§3",
        "game longer than 1 MiB, read in parts",
        "A game (§3: the text between two semi-empty lines) longer than 1 MiB is read \
         in parts of at most 1 MiB, cut at a line start (or, on a line longer than \
         that, before a `[`), so that memory stays bounded on any file; no real game \
         comes near that size (a line holds at most 255 characters, §2.3). Each part \
         is checked as a game of its own, so rules that need the whole game (notes, \
         the auction's end) may report what the whole game would not; `pbn fmt` keeps \
         every part as written. Split the game at a semi-empty line, or remove the \
         repeated text.",
        bad: "a game of over 1 MiB (1,048,576 bytes)\n",
        good: "[Event \"x\"]\n";
}
