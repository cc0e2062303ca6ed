//! PBN07xx: annotations (suffixes, note references, NAGs, irregularity
//! marks) and notes.

use super::codes;

codes! {
    MULTIPLE_SUFFIXES = "PBN0701", "multiple-suffixes", Error, Note, "§3.5.2",
        "more than one suffix on a call or card",
        "At most one suffix annotation (`!` `?` `!!` `??` `!?` `?!`) may follow a call or a \
         card (§3.5.2, §3.6.2). `!!!` is read as `!!` followed by `!`.",
        bad: "[Dealer \"N\"]\n[Auction \"N\"]\n1C !! !\n",
        good: "[Dealer \"N\"]\n[Auction \"N\"]\n1C !!\n";
    CONFLICTING_EVALUATION = "PBN0702", "conflicting-evaluation", Info, Note, "§3.7",
        "suffix and evaluation NAG given together",
        "A suffix is the same annotation as a NAG: `!` is $1 for a call and $7 for a card, \
         and so on (§3.5.3, §3.6.3, §3.7). A call with `!` and $3, or with $1 and $2, has \
         two contradicting evaluations; export format would carry both NAGs. The standard \
         allows at most one suffix and zero or more NAGs after each call or card \
         (§3.5.2, §3.6.2), so this is advice, not an error.",
        bad: "[Dealer \"N\"]\n[Auction \"N\"]\n1H ! $3\n",
        good: "[Dealer \"N\"]\n[Auction \"N\"]\n1H $3\n";
    MULTIPLE_NOTE_REFS = "PBN0703", "multiple-note-references", Error, Note, "§3.5.4",
        "more than one note reference on a call or card",
        "A call or card can be followed by at most one note reference (§3.5.4, §3.6.4). \
         Combine the explanations into one note.",
        bad: "[Dealer \"N\"]\n[Auction \"N\"]\n2NT =1= =2=\n",
        good: "[Dealer \"N\"]\n[Auction \"N\"]\n2NT =1=\n";
    NAG_OUT_OF_RANGE = "PBN0704", "nag-out-of-range", Error, Note, "§3.7",
        "NAG value above 255",
        "The NAG token is a dollar sign followed by a non-negative integer between zero \
         and 255 (§3.7).",
        bad: "[Dealer \"N\"]\n[Auction \"N\"]\n2C $256\n",
        good: "[Dealer \"N\"]\n[Auction \"N\"]\n2C $25\n";
    NAG_NOT_A_NUMBER = "PBN0705", "nag-not-a-number", Error, Note, "§3.2",
        "NAG is not `$` followed by digits",
        "A NAG is composed of a dollar sign immediately followed by one or more digit \
         characters (§3.2, §3.7).",
        bad: "[Dealer \"N\"]\n[Auction \"N\"]\n2D $a\n",
        good: "[Dealer \"N\"]\n[Auction \"N\"]\n2D $15\n";
    NAG_WRONG_SECTION = "PBN0706", "nag-wrong-section", Error, Note, "§3.7",
        "NAG reserved for the other section",
        "The NAG values $1..$6 and $13 may only be used for calls in the auction section; \
         the values $7..$12 and $14 only for played cards in the play section (§3.7).",
        bad: "[Auction \"N\"]\n1NT $7\n",
        good: "[Auction \"N\"]\n1NT $1\n";
    NOTE_REF_INVALID = "PBN0707", "note-reference-invalid", Error, Note, "§3.2",
        "note reference is not `=` digits `=`",
        "A note token is a sequence of one or more digit characters preceded and \
         succeeded by the equal sign (§3.2).",
        bad: "[Dealer \"N\"]\n[Auction \"N\"]\n2H =a=\n",
        good: "[Dealer \"N\"]\n[Auction \"N\"]\n2H =1=\n";
    NOTE_INDEX_RANGE = "PBN0708", "note-index-range", Error, Note, "§3.5.4",
        "note index outside 1..32",
        "The value of the note index lies between 1 and 32 (§3.5.4, §3.6.4).",
        bad: "[Dealer \"N\"]\n[Auction \"N\"]\n2S =44=\n",
        good: "[Dealer \"N\"]\n[Auction \"N\"]\n2S =4=\n";
    MISSING_NOTE = "PBN0709", "missing-note", Error, Note, "§3.5.5",
        "note reference without its Note tag",
        "A note reference `=n=` is explained by a Note tag `[Note \"n:…\"]` placed at the \
         end of the same section (§3.5.5, §3.6.5): auction references by auction notes, \
         play references by play notes.",
        bad: "[Auction \"N\"]\n1C =1= AP\n",
        good: "[Auction \"N\"]\n1C =1= AP\n[Note \"1:16+ points\"]\n";
    UNUSED_NOTE = "PBN0710", "unused-note", Warning, Note, "§3.5.5",
        "Note tag that no call or card refers to",
        "A note explains the calls or cards that refer to it with `=n=` (§3.5.5, \
         §3.6.5). Nothing in this section refers to this note.",
        bad: "[Auction \"N\"]\n1C AP\n[Note \"1:16+ points\"]\n",
        good: "[Auction \"N\"]\n1C =1= AP\n[Note \"1:16+ points\"]\n";
    STRAY_ANNOTATION = "PBN0711", "stray-annotation", Error, Note, "§3.5.2",
        "annotation with no call or card to belong to",
        "Suffixes, note references and NAGs are added after a call or card (§3.5.2, \
         §3.6.2); irregularity marks `^I`, `^R`, `^L` precede one (§3.9). This one has \
         nothing to attach to.",
        bad: "[Auction \"N\"]\n! 1C AP\n",
        good: "[Auction \"N\"]\n1C ! AP\n";
    MISPLACED_IRREGULARITY = "PBN0712", "misplaced-irregularity", Error, Note, "§3.9",
        "irregularity mark not allowed here",
        "`^I` (insufficient bid) precedes a bid and `^S` (skipped call) replaces a call in \
         the auction section; `^R` (revoke) and `^L` (lead out of turn) precede a card in \
         the play section (§3.9). Other letters do not exist, and one card or call \
         carries at most one mark.",
        bad: "[Play \"W\"]\n^R ^R C5\n",
        good: "[Play \"W\"]\n^R C5\n";
}
