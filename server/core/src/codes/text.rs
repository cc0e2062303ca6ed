//! PBN01xx: characters, lines and encoding (§2.2, §2.3, §3.2).

use super::codes;

codes! {
    CONTROL_CHARACTER = "PBN0101", "control-character", Error, Encoding, "§2.2",
        "control character not permitted in PBN data",
        "PBN data uses the printing characters of ISO 8859-1. The horizontal and vertical \
         tab are permitted; no other ASCII control character (0–31, 127) may appear except \
         in the line ends, and the code values 128–159 are not used for PBN data (§2.2). \
         Such bytes usually come from a file damaged in transfer or written in another \
         encoding.",
        bad: "[Event \"a\u{7}b\"]\n",
        good: "[Event \"ab\"]\n";
    TAB_IN_STRING = "PBN0102", "tab-in-string", Error, Encoding, "§2.3",
        "tab character inside a string",
        "Tab characters may not appear inside string data (§2.3; §3.2: non-printing \
         characters like tab are not permitted inside strings). Replace the tab with \
         spaces.",
        bad: "[Event \"Club\tnight\"]\n",
        good: "[Event \"Club night\"]\n";
    LINE_TOO_LONG = "PBN0103", "line-too-long", Error, Encoding, "§2.3",
        "line longer than 255 characters",
        "The length of a PBN text line is at most 255 characters including the \
         end-of-line indicator (§2.3), so at most 254 visible characters. Long comments \
         can be broken over several lines; a long Note goes on in a comment (PBN0104).",
        bad: "{ xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx }\n",
        good: "{ xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n  xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx }\n";
    TOKEN_TOO_LONG = "PBN0104", "token-too-long", Error, Encoding, "§3.2",
        "token longer than 255 characters",
        "A token's length is limited to a maximum of 255 characters (§3.2). This applies \
         to tag names, strings (quotes included), calls, cards and section tokens. A Note \
         too long for one line (a bidding program explaining every alternative) is cut at \
         a space and goes on in a comment right after the tag, `{Note 1 continued: …}`: \
         §3.5.5 allows one Note tag per index, and every PBN reader keeps a comment. \
         `pbn dump`, `show`, `html`, `convert` and the hover read the note whole again; \
         that repair is the safe fix of a long Note.",
        bad: "[Event \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"]\n",
        good: "[Event \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"]\n";
    NON_ASCII_SYMBOL = "PBN0105", "non-ascii-outside-strings", Error, Encoding, "§2.2",
        "non-ASCII character outside strings and comments",
        "Printing characters outside the seven-bit ASCII range may only appear in string \
         data and in commentary; they are not permitted for symbol construction (§2.2): \
         tag names, calls, cards and section tokens must be ASCII.",
        bad: "[ScoreTable \"Rank;Names_NS\"]\n1 Müller\n",
        good: "[ScoreTable \"Rank;Names_NS\"]\n1 \"Müller\"\n";
    NOT_LATIN1 = "PBN0106", "not-latin1", Warning, Encoding, "§2.2",
        "character outside ISO 8859-1",
        "PBN data is represented in ISO 8859-1 (Latin-1, §2.2). This character (for \
         example a suit symbol ♠ or a curly quote) has no Latin-1 code: a PBN reader \
         that follows the standard will show garbage, and the file cannot be written \
         back in Latin-1. Write suits as `\\S`, `\\H`, `\\D`, `\\C` in comments (§3.8).",
        bad: "{ 4♠ makes }\n",
        good: "{ 4\\S makes }\n";
    CHARSET_MISMATCH = "PBN0107", "charset-mismatch", Warning, Encoding, "§2.2",
        "declared charset does not match the content",
        "A `%Content-type: …; charset=…` escape line declares an encoding that the bytes \
         of the file contradict (for example it declares ISO-8859-1 but the file is \
         valid UTF-8 with non-ASCII characters). The file was read the way its content \
         shows; fix or remove the declaration.",
        bad: "%Content-type: text/x-pbn; charset=ISO-8859-1\n{ café (written as UTF-8) }\n",
        good: "%Content-type: text/x-pbn; charset=UTF-8\n{ café (written as UTF-8) }\n";
    C1_CHARACTER = "PBN0108", "windows-1252-character", Warning, Encoding, "§2.2",
        "Windows-1252 character in the range 128–159",
        "The file is not UTF-8 and uses byte values 128–159, which ISO 8859-1 reserves \
         for control characters that are not used for PBN data (§2.2). It was read as \
         Windows-1252, where these bytes are printing characters such as curly quotes \
         or the euro sign; other PBN readers may not do so.",
        bad: "{ \u{201c}quoted\u{201d} } (bytes 0x93 0x94)\n",
        good: "{ \"quoted\" }\n";
    UNKNOWN_CHARSET = "PBN0109", "unknown-charset", Warning, Encoding, "§2.2",
        "unknown charset declaration",
        "A `%Content-type` escape line names a charset this reader does not know. The \
         encoding was detected from the content (UTF-8 if valid, else ISO 8859-1, the \
         encoding PBN 2.1 prescribes in §2.2).",
        bad: "%Content-type: text/x-pbn; charset=klingon\n",
        good: "%Content-type: text/x-pbn; charset=ISO-8859-1\n";
    WIDE_ENCODING = "PBN0110", "utf16-or-utf32", Error, Encoding, "§2.2",
        "file is UTF-16 or UTF-32",
        "PBN data is represented in ISO 8859-1 (Latin-1, §2.2); UTF-8 is widely read as \
         well. This file is UTF-16 or UTF-32 (found by its byte order mark, or by the NUL \
         bytes between its ASCII characters), which PBN readers do not read: they see a \
         NUL byte after or before every character. It was decoded and checked as text; \
         save it as UTF-8 or Latin-1 (`pbn fmt --force` writes it as UTF-8).",
        bad: "[\0E\0v\0e\0n\0t\0 \0\"\0x\0\"\0]\0\n\0",
        good: "[Event \"x\"]\n";
    UTF8_FILE = "PBN0111", "utf8-not-latin1-file", Error, Encoding, "§2.2",
        "file is UTF-8, not ISO 8859-1",
        "\"PBN data is represented using a subset of the eight bit ISO 8859/1 (Latin 1) \
         character set\" (§2.2). This file is UTF-8: its non-ASCII characters (é is two \
         bytes in UTF-8, one in ISO 8859-1) or its UTF-8 byte order mark are bytes a PBN \
         reader that follows the standard shows as garbage (the reference verifier \
         reports a bad character). pbn reads UTF-8 all the same; the diagnostic comes \
         once per file, on the first non-ASCII character, with their count. When every \
         character has an ISO 8859-1 code, `pbn fmt` and `pbn check --fix` write the \
         file in ISO 8859-1 (a `charset=` declaration then says `ISO-8859-1`; a byte \
         order mark is dropped). When some do not (a suit symbol ♠, a curly quote), \
         there is no fix: PBN0106 marks each of them; replace them (`\\S` for ♠ in \
         comments, §3.8) and the file can be written in ISO 8859-1. A file with only \
         a byte order mark beyond ASCII is written without it. In an editor the \
         language server sees text, not bytes (a Latin-1 file with é reaches it as the \
         same text as a UTF-8 one), so it does not report this: `pbn check` does; \
         re-save the file as ISO 8859-1 (Latin-1), or run `pbn fmt` on it.",
        bad: "{ café, written as UTF-8 }\n",
        good: "{ cafe }\n";
}
