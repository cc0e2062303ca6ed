//! PBN03xx: tag values; PBN04xx: the Deal tag. Reported by the value parsers
//! in `model/values/` (ranges inside the tag value).
//!
//! Severities follow [`super::POLICY`]: a value the spec does not allow is
//! an error even when its meaning is clear (`2023-07-28`, `3N`, `North`;
//! the parser still returns the value read); forms the spec allows in
//! import format (lowercase per §3.11, `Love`, `Both`, `-`, unsorted ranks,
//! any first seat in the Deal) produce no issue here at all — export-format
//! rules use the typed values.

use super::codes;

codes! {
    DATE_FORMAT = "PBN0301", "date-format", Error, Tag, "§3.4.3",
        "date is not in the form YYYY.MM.DD",
        "The Date, EventDate (§4.4.1) and UTCDate (§4.5.2) tag values always use the \
         ten character format \"YYYY.MM.DD\": four digits for the year, a period, two \
         digits for the month, a period and two digits for the day. Unknown digits are \
         written as `?` (e.g. \"1995.??.??\"). A two-digit year or a letter in place of a \
         digit cannot be read as a date.",
        bad: "[Date \"95.06.10\"]\n",
        good: "[Date \"1995.06.10\"]\n";
    NONSTANDARD_DATE = "PBN0302", "nonstandard-date", Error, Tag, "§3.4.3",
        "date is readable but not written as YYYY.MM.DD",
        "The date uses `-` or `/` as separators, has no separators at all, or writes a \
         month or day with one character (e.g. \"2023-07-28\", \"20151006\", \
         \"2015.09.?\"); or it names its month (\"2-Aug-2023\"), puts the year last \
         where a field above 12 tells the day from the month (\"24.08.2013\", \
         \"08/24/2013\"), or has a time after it (\"2013-08-24 18:36\"). The date is \
         read as year, month, day, but §3.4.3 prescribes exactly \"YYYY.MM.DD\" with \
         periods and `?` for each unknown digit. The fix writes that form; a time moves \
         to the Time tag (UTCTime for UTCDate, §4.5) when that tag is absent or says the \
         same time. A year last with both other fields 12 or less (\"08/07/2013\") \
         could be either order and is PBN0301: no order is guessed.",
        bad: "[Date \"2023-07-28\"]\n",
        good: "[Date \"2023.07.28\"]\n";
    IMPOSSIBLE_DATE = "PBN0303", "impossible-date", Error, Tag, "§3.4.3",
        "month or day of the date does not exist",
        "The month must be 01 to 12 and the day must exist in that month (01 to 28, \
         29, 30 or 31; 29 February only in a leap year). Fields that contain `?` are \
         not checked.",
        bad: "[Date \"1995.13.40\"]\n",
        good: "[Date \"1995.12.31\"]\n";
    TIME_FORMAT = "PBN0304", "time-format", Error, Tag, "§4.5.1",
        "time is not a valid HH:MM:SS",
        "The Time and UTCTime tag values use the form \"HH:MM:SS\" (hours 00-23, minutes \
         and seconds 00-59) with colons, not periods, as separators (§4.5.1, §4.5.3). \
         Like in the Date tag, unknown digits may be written as `?`.",
        bad: "[Time \"20.32\"]\n",
        good: "[Time \"20:32:00\"]\n";
    TIME_CONTROL_FORMAT = "PBN0305", "time-control-format", Error, Tag, "§4.6.1",
        "TimeControl is not <NrGames>/<NrMinutes>",
        "The TimeControl tag value has the syntax \"<NrGames>/<NrMinutes>\": the number \
         of games that must be finished within the given number of minutes, both \
         positive integers (e.g. \"4/30\"). Without a time limit the value is \"\".",
        bad: "[TimeControl \"30 minutes\"]\n",
        good: "[TimeControl \"4/30\"]\n";
    SECONDS_FORMAT = "PBN0306", "seconds-format", Error, Tag, "§4.6.2",
        "time limit is not a whole number of seconds",
        "The TimeCall (§4.6.2) and TimeCard (§4.6.3) tag values limit the time for one \
         call or one card; the value is a number of seconds, a non-negative integer \
         without a unit.",
        bad: "[TimeCall \"10s\"]\n",
        good: "[TimeCall \"10\"]\n";
    BOARD_FORMAT = "PBN0307", "board-format", Error, Tag, "§3.4.4",
        "Board is not a positive integer",
        "The Board tag value is a positive integer, the board number of the deal \
         (§3.4.4). Programs derive the dealer and the vulnerability from it, so labels \
         such as \"Example 1\" or \"3-1\" cannot be used; put them in Description or in \
         a comment.",
        bad: "[Board \"Example 1\"]\n",
        good: "[Board \"1\"]\n";
    TABLE_NUMBER = "PBN0308", "table-number", Warning, Tag, "§4.4.7",
        "Table is not a positive integer",
        "The Table tag identifies the table in a tournament; its value \"will normally \
         be a positive integer\" (§4.4.7). Other values are allowed by the wording of \
         the spec, hence only a warning, but programs that sort or look up tables by \
         number cannot use them.",
        bad: "[Table \"T1\"]\n",
        good: "[Table \"1\"]\n";
    ROUND_FORMAT = "PBN0309", "round-format", Error, Tag, "§4.4.4",
        "Round has characters other than letters, digits, `_` and `.`",
        "A round indicator consists of letters, digits and the underscore; a multipart \
         round is a sequence of such indicators separated by periods, most significant \
         first (e.g. \"1.A.2\") (§4.4.4). Each part must be non-empty; signs, spaces and \
         other punctuation are not allowed.",
        bad: "[Round \"-1\"]\n",
        good: "[Round \"1.A.2\"]\n";
    SEAT_FORMAT = "PBN0310", "seat-format", Error, Tag, "§3.4.9",
        "value is not a direction W, N, E or S",
        "The Dealer (§3.4.9), Declarer (§3.4.13), Auction (§3.5) and Play (§3.6) tag \
         values are a direction: \"W\" (West), \"N\" (North), \"E\" (East) or \"S\" \
         (South); lowercase is allowed in import format (§3.11). The Declarer may be \
         preceded by `^` when declarer and dummy were swapped, and is \"\" when all \
         players passed.",
        bad: "[Dealer \"Black\"]\n",
        good: "[Dealer \"N\"]\n";
    NONSTANDARD_SEAT = "PBN0311", "nonstandard-seat", Error, Tag, "§3.4.9",
        "direction written as a word instead of a letter",
        "A direction is written with one letter, W, N, E or S (§3.4.9, §3.11). A full \
         name such as \"North\" is understood, but other PBN programs may not read it.",
        bad: "[Dealer \"North\"]\n",
        good: "[Dealer \"N\"]\n";
    VULNERABLE_FORMAT = "PBN0312", "vulnerable-format", Error, Tag, "§3.4.10",
        "Vulnerable is not None, Love, -, NS, EW, All or Both",
        "The Vulnerable tag value is one of \"None\", \"Love\" or \"-\" (nobody \
         vulnerable), \"NS\", \"EW\", \"All\" or \"Both\" (§3.4.10), or the lowercase \
         forms of §3.11. A single direction such as \"E\" does not say which side is \
         vulnerable.",
        bad: "[Vulnerable \"E\"]\n",
        good: "[Vulnerable \"EW\"]\n";
    NONSTANDARD_VULNERABLE = "PBN0313", "nonstandard-vulnerable", Error, Tag, "§3.4.10",
        "vulnerability is readable but not one of the listed values",
        "Values such as \"N-S\", \"E/W\" or \"NONE\" are understood, but the spec lists \
         only \"None\", \"Love\", \"-\", \"NS\", \"EW\", \"All\", \"Both\" (§3.4.10) and \
         their all-lowercase forms (§3.11). In export format only \"None\", \"NS\", \
         \"EW\" and \"All\" are used.",
        bad: "[Vulnerable \"N-S\"]\n",
        good: "[Vulnerable \"NS\"]\n";
    UNKNOWN_SCORING = "PBN0314", "unknown-scoring", Warning, Tag, "§3.4.12",
        "Scoring field is not a known scoring system or modifier",
        "The Scoring tag value consists of fields separated by `;`, each a basic scoring \
         system (MP, MatchPoints, IMP, Cavendish, Chicago, Rubber, BAM, Instant) or a \
         modifier (Butler, Butler-2, Experts, Cross, Cross1, Cross2, Mean, Median, MP1, \
         MP2, OldMP, Mitchell2-4, Ascherman, Bastille, EMP, IMP_1948, IMP_1961) \
         (§3.4.12). The list is open-ended, but the scoring method decides how the \
         scores are computed, so a field no program knows is worth a warning. A number \
         here is usually a score that belongs in the Score tag (§4.2.1). A listed field \
         in another letter case (\"imp\") is such an unknown field too: PBN is case \
         sensitive, and §3.11 does not list Scoring among the tags where lowercase is \
         allowed (§3.11), but an open-ended list forbids no field.",
        bad: "[Scoring \"620\"]\n",
        good: "[Scoring \"IMP;Butler\"]\n";
    CONTRACT_FORMAT = "PBN0315", "contract-format", Error, Tag, "§3.4.14",
        "Contract is not Pass or <level><denomination><risk>",
        "The Contract tag value is \"Pass\" when all players pass, or \
         \"<k><denomination><risk>\" with k = 1..7, denomination S, H, D, C or NT and \
         risk \"\" (undoubled), X (doubled) or XX (redoubled) (§3.4.14). In an end \
         position it is only the denomination (§3.10). Lowercase is allowed in import \
         format (§3.11).",
        bad: "[Contract \"5Hearts\"]\n",
        good: "[Contract \"5H\"]\n";
    NONSTANDARD_CONTRACT = "PBN0316", "nonstandard-contract", Error, Tag, "§3.4.14",
        "contract is readable but not written as the spec prescribes",
        "Notrump is written \"NT\" and redoubled \"XX\" (§3.4.14). \"3N\" or \"4SR\" are \
         understood (as 3NT and 4SXX), but other PBN programs may not read them.",
        bad: "[Contract \"3N\"]\n",
        good: "[Contract \"3NT\"]\n";
    RESULT_FORMAT = "PBN0317", "result-format", Error, Tag, "§3.4.15",
        "Result is not a number of tricks 0..13 in one of the five forms",
        "The Result tag value is \"<result>\" (tricks won by declarer), \"NS <result>\", \
         \"EW <result>\", \"NS <result> EW <result>\" or \"EW <result> NS <result>\", \
         with <result> = 0..13, optionally preceded by `^` when the result differs from \
         the tricks actually won; \"\" when all players passed (§3.4.15).",
        bad: "[Result \"C-2\"]\n",
        good: "[Result \"9\"]\n";
    RESULT_SUM_OVER_13 = "PBN0318", "result-sum-over-13", Error, Tag, "§3.4.15",
        "NS and EW tricks add up to more than 13",
        "When the Result gives the tricks of both sides, they cannot add up to more \
         than the 13 tricks of a deal (§3.4.15).",
        bad: "[Result \"NS 9 EW 5\"]\n",
        good: "[Result \"NS 9 EW 4\"]\n";
    RESULT_SUM_UNDER_13 = "PBN0319", "result-sum-under-13", Warning, Tag, "§3.4.15",
        "NS and EW tricks add up to less than 13",
        "After a complete play the tricks of both sides add up to 13. The Result tag may \
         also give a partial result when the play has not ended (§3.4.15), so a smaller \
         sum is possible and only a warning; check the play section or mark an \
         incomplete play with `+` or `*`. The reference verifier reports this as \
         \"sum differs from 13\".",
        bad: "[Result \"NS 9 EW 2\"]\n",
        good: "[Result \"NS 9 EW 4\"]\n";
    SCORE_FORMAT = "PBN0320", "score-format", Error, Tag, "§4.2",
        "score is not a number in one of the five score forms",
        "Score (§4.2.1), ScoreIMP (§4.2.2), ScoreMP (§4.2.3), ScorePercentage (§4.2.4), \
         ScoreRubber (§4.2.5) and OptimumScore (§4.2.7) use the forms \"<score>\", \
         \"NS <score>\", \"EW <score>\", \"NS <score> EW <score>\" and \"EW <score> NS \
         <score>\". Score and OptimumScore are integers; ScoreIMP, ScoreMP and \
         ScorePercentage integers or decimals with a dot (\"2.5\", \"50.\"); ScoreRubber \
         is \"<above>/<below>\" with two non-negative integers.",
        bad: "[ScoreIMP \"10.a\"]\n",
        good: "[ScoreIMP \"EW -2.5\"]\n";
    PERCENTAGE_RANGE = "PBN0321", "percentage-range", Error, Tag, "§4.2.4",
        "percentage is outside 0..100",
        "A ScorePercentage value (and a percentage column of a table) is a decimal value \
         between 0 and 100 (§4.2.4).",
        bad: "[ScorePercentage \"-10\"]\n",
        good: "[ScorePercentage \"10\"]\n";
    RUBBER_HISTORY_FORMAT = "PBN0322", "rubber-history-format", Error, Tag, "§4.2.6",
        "ScoreRubberHistory is not NS <history> EW <history>",
        "The ScoreRubberHistory tag value is \"NS <HistoryScore> EW <HistoryScore>\"; \
         each <HistoryScore> is \"<above_previous> <above_current>/<below-1> [<below-2> \
         [<below-3>]]\", 3 to 5 non-negative integers (§4.2.6).",
        bad: "[ScoreRubberHistory \"NS 0/40 EW 0\"]\n",
        good: "[ScoreRubberHistory \"NS 0 0/40 EW 0 0/0\"]\n";
    OPTIMUM_SCORE_SIDE = "PBN0323", "optimum-score-side", Error, Tag, "§4.2.7",
        "OptimumScore does not say which side the score is for",
        "The OptimumScore has no declarer to refer to, so §4.2.7 allows only the four \
         forms with a side: \"NS <score>\", \"EW <score>\", \"NS <score> EW <score>\" and \
         \"EW <score> NS <score>\". A bare number is kept but its side is ambiguous.",
        bad: "[OptimumScore \"620\"]\n",
        good: "[OptimumScore \"NS 620\"]\n";
    VALUE_NOT_ALLOWED = "PBN0324", "value-not-allowed", Error, Tag, "§4.1",
        "value is not one of the values the tag allows",
        "Some supplemental tags have a closed set of values: FrenchMP is \"Yes\" or \"No\" \
         (§4.1.4) and Room is \"Open\" or \"Closed\" (§4.1.7).",
        bad: "[Room \"Blue\"]\n",
        good: "[Room \"Open\"]\n";
    VALUE_CASE = "PBN0325", "value-case", Error, Tag, "§3.11",
        "keyword in a letter case the spec does not list",
        "PBN is case sensitive (§3.11). Import format also accepts the all-lowercase \
         forms listed in §3.11 (e.g. \"both\", \"3ntx\", \"pass\"); other spellings such as \
         \"NONE\", \"Nt\" or FrenchMP \"yes\" are understood but are not PBN.",
        bad: "[FrenchMP \"yes\"]\n",
        good: "[FrenchMP \"Yes\"]\n";
    HIDDEN_FORMAT = "PBN0326", "hidden-format", Error, Tag, "§4.1.6",
        "Hidden contains a character other than W, N, E, S",
        "The Hidden tag value is a sequence of the directions whose hands a viewer \
         initially hides: the characters W, N, E and S, without separators, e.g. \"WE\" \
         (§4.1.6).",
        bad: "[Hidden \"E,W\"]\n",
        good: "[Hidden \"EW\"]\n";
    HIDDEN_DUPLICATE = "PBN0327", "hidden-duplicate", Warning, Tag, "§4.1.6",
        "direction listed twice in Hidden",
        "The Hidden tag value is a set of directions (§4.1.6); listing one twice has no \
         effect and is probably a typing error.",
        bad: "[Hidden \"WEW\"]\n",
        good: "[Hidden \"WE\"]\n";
    UNLISTED_VALUE = "PBN0328", "unlisted-value", Info, Tag, "§4",
        "value is not one of the example values of this tag",
        "Competition (§4.1.1), Termination (§4.1.8), WestType/NorthType/EastType/\
         SouthType (§4.3.4) and Mode (§4.7.4) list example values only; §4 says a tag \
         value has no restrictions unless stated otherwise. Other values are therefore \
         legal, but programs that interpret the tag will not recognize them.",
        bad: "[Mode \"Unknown tag\"]\n",
        good: "[Mode \"TABLE\"]\n";
    NOTE_FORMAT = "PBN0329", "note-format", Error, Tag, "§3.5.5",
        "Note is not <index>:<text>",
        "A note tag value is \"<note_index>:<note_text>\": the index of the note \
         referenced as =<note_index>= in the auction or play, a colon and the \
         explanation (§3.5.5, §3.6.5).",
        bad: "[Note \"a:forcing\"]\n",
        good: "[Note \"1:forcing\"]\n";
    NOTE_INDEX_RANGE = "PBN0330", "note-tag-index-range", Error, Tag, "§3.5.4",
        "index of the Note tag is not between 1 and 32",
        "The <note_index> of a Note tag value \"<note_index>:<note_text>\" lies between 1 and \
         32 (§3.5.4, §3.6.4), like the note references =<note_index>= it explains (see \
         PBN0708 for the references).",
        bad: "[Note \"33:illegal note index\"]\n",
        good: "[Note \"32:last note index\"]\n";
    VALUE_PADDING = "PBN0331", "value-padding", Warning, Tag, "§3.3",
        "white space around the tag value",
        "This tag value is a single item (a direction, a number, a date, a keyword…); \
         the white space before or after it is not part of the syntax of the value. It \
         is ignored, but other programs may compare the value literally.",
        bad: "[Vulnerable \"None \"]\n",
        good: "[Vulnerable \"None\"]\n";
    COLUMN_SPEC = "PBN0332", "column-spec", Error, Tag, "§5.2",
        "malformed column specification of a table",
        "The tag value of a table is one or more column names separated by `;` (§5.2). \
         A name may start with `+` (descending) or `-` (ascending) and may end with `\\` \
         followed by the minimum width, an integer, optionally followed by `L` or `R` for \
         left or right alignment. A column name cannot be empty.",
        bad: "[OptimumResultTable \"Declarer;Denomination\\R;Result\\2R\"]\n",
        good: "[OptimumResultTable \"Declarer;Denomination\\2R;Result\\2R\"]\n";
    TABLE_CELL_FORMAT = "PBN0333", "table-cell-format", Error, Table, "§5.2",
        "table element does not match the format of its column",
        "Predefined table columns have a value format (§5.3-§5.10): Rank, NrBoards and \
         Multiplicity are positive integers, Score_NS/Score_EW integers, IMP_*, MP_*, \
         Percentage*, Total* and Mean* decimal numbers, Time/TotalTime HH:MM:SS, MM:SS \
         or SS, Contract, Declarer, Result and Denomination as in the tags. An unknown \
         element is `?`, an irrelevant one `-`, and an artificial score is preceded by \
         `^` (§5.2). Against the reference verifier: an ActionTable's Card column holds a \
         card (§5.3: \"card as defined in play section\"), so a suit alone (`D`, \"lead a \
         diamond\") is flagged although the verifier accepts it; an ActionTable's Rank may \
         be 0 (the standard's author ends one with a row of zeros, which §5.3 allows).",
        bad: "[ScoreTable \"Rank\\2R;Score_NS\\5R\"]\n 1   abc\n",
        good: "[ScoreTable \"Rank\\2R;Score_NS\\5R\"]\n 1   420\n";

    DEAL_FIRST_SEAT = "PBN0401", "deal-first-seat", Error, Deal, "§3.4.11",
        "Deal does not start with <first>: (W:, N:, E: or S:)",
        "The Deal tag value is \"<first>:<1st_hand> <2nd_hand> <3rd_hand> <4th_hand>\"; \
         <first> is the direction of the first hand, W, N, E or S, followed by a colon \
         (§3.4.11). Without it the hands cannot be assigned to the players (four \
         given hands without it are read from North: PBN0412).",
        bad: "[Deal \"KQT2.AT.J6542.85 - - -\"]\n",
        good: "[Deal \"W:KQT2.AT.J6542.85 - - -\"]\n";
    DEAL_HAND_COUNT = "PBN0402", "deal-hand-count", Error, Deal, "§3.4.11",
        "Deal does not have 4 hands",
        "The Deal gives 4 hands in clockwise rotation from <first>, separated by one \
         space (§3.4.11). A hand whose cards are not given is written `-`.",
        bad: "[Deal \"W:KQT2.AT.J6542.85 .63.AKQ987.A9732\"]\n",
        good: "[Deal \"W:KQT2.AT.J6542.85 .63.AKQ987.A9732 - -\"]\n";
    DEAL_SPACING = "PBN0403", "deal-spacing", Error, Deal, "§3.4.11",
        "hands of the Deal not separated by exactly one space",
        "\"A space character exists between two consecutive hands\" (§3.4.11): exactly \
         one space, and no white space before the first or after the last hand. The \
         reference verifier rejects a double space.",
        bad: "[Deal \"W:KQT2.AT.J6542.85  - - -\"]\n",
        good: "[Deal \"W:KQT2.AT.J6542.85 - - -\"]\n";
    DEAL_SUIT_COUNT = "PBN0404", "deal-suit-count", Error, Deal, "§3.4.11",
        "hand does not have 4 suits separated by dots",
        "The cards of a hand are given in the order spades, hearts, diamonds, clubs, \
         with a dot between consecutive suits (§3.4.11): always 3 dots, even for voids \
         (\".63.AKQ987.A9732\" has a spade void).",
        bad: "[Deal \"N:AKQJ.T98.765 - - -\"]\n",
        good: "[Deal \"N:AKQJ.T98.765.432 - - -\"]\n";
    DEAL_RANK = "PBN0405", "deal-rank", Error, Deal, "§3.4.11",
        "character is not a rank",
        "The cards of a suit are given by their ranks A, K, Q, J, T, 9, 8, 7, 6, 5, 4, 3, \
         2 (lowercase allowed in import format, §3.11). The ten is the single character \
         T, not \"10\": a fix writes every `10` of the Deal as `T` (safe when the Deal \
         then reads as a whole).",
        bad: "[Deal \"W:vKQT2.AT.J6542.85 - - -\"]\n",
        good: "[Deal \"W:KQT2.AT.J6542.85 - - -\"]\n";
    DEAL_DUPLICATE_CARD = "PBN0406", "deal-duplicate-card", Error, Deal, "§3.4.11",
        "card appears twice in the Deal",
        "Every card of the deck exists once: a card cannot appear twice in a suit, nor \
         in two hands (§3.4.11). An unsafe fix is offered when one correction is the \
         only smallest one: a card twice in one hand of 13 with one card missing from \
         the deck (the later one is replaced by the missing card), or a card in a hand \
         of 14 and in another hand (it is taken out of the 14). A card in two hands of \
         13 has no fix: either may be the wrong one.",
        bad: "[Deal \"W:KQT2.AT.J6542.85 K.63.AKQ987.A973 - -\"]\n",
        good: "[Deal \"W:KQT2.AT.J6542.85 .63.AKQ987.A9732 - -\"]\n";
    DEAL_TOO_MANY_CARDS = "PBN0407", "deal-too-many-cards", Error, Deal, "§3.4.11",
        "hand has more than 13 cards",
        "A hand has 13 cards, or fewer in an end position (§3.10). An unsafe fix takes a \
         card out when that card is also in another hand (and gives the card missing \
         from the deck to a hand of 12, if there is one). A hand of 14 without a card \
         given twice has no fix: any of its cards may be the extra one.",
        bad: "[Deal \"W:KQT2.AT.J6542.852 - - -\"]\n",
        good: "[Deal \"W:KQT2.AT.J6542.85 - - -\"]\n";
    DEAL_UNEQUAL_HANDS = "PBN0408", "deal-unequal-hands", Error, Deal, "§3.10",
        "hands of the Deal have different numbers of cards",
        "All given hands have 13 cards, or, in an end position (§3.10), all the same \
         number of cards below 13. A hand with a different number of cards means a card \
         is missing or misplaced. An unsafe fix gives a hand of 12 the one card missing \
         when the four hands are given and 51 different cards are there (or moves a card \
         given twice out of a hand of 14). There is no fix when the missing card could \
         be in a hand not given, or when a hand of 14 has no card given twice.",
        bad: "[Deal \"W:QT2.AT.J6542.85 - A8654.KQ5.T.QJT6 -\"]\n",
        good: "[Deal \"W:KQT2.AT.J6542.85 - A8654.KQ5.T.QJT6 -\"]\n";
    DEAL_NO_CARDS = "PBN0409", "deal-no-cards", Error, Deal, "§3.4.11",
        "Deal does not give any card",
        "At least one hand must be given (§3.4.11). When the cards are not known at \
         all, use the value \"?\" (unknown, §3.4) or \"\" instead of four `-` hands.",
        bad: "[Deal \"W:- - - -\"]\n",
        good: "[Deal \"?\"]\n";
    DEAL_SPOT_CARDS = "PBN0410", "deal-spot-cards", Error, Deal, "§3.4.11",
        "`x` used for an unspecified small card",
        "`x` is not a rank (§3.4.11); some programs use it for a small card whose rank \
         does not matter. It is counted as a card of unknown rank, but the hand cannot \
         be played out and other programs will reject it. There is no fix: an `x` \
         does not say which card it is (two `x` in one suit of two hands can be \
         either way round), so only the author can write the ranks.",
        bad: "[Deal \"W:AKxx.Kxx.Qxx.xxx - - -\"]\n",
        good: "[Deal \"W:AK32.K54.Q76.982 - - -\"]\n";
    DEAL_EMPTY_HAND = "PBN0411", "deal-empty-hand", Error, Deal, "§3.4.11",
        "hand written as `...` instead of `-`",
        "A hand whose cards are not given is indicated by `-` (§3.4.11). A hand with \
         four empty suits (\"...\") is read the same way, but it literally means a hand \
         without cards.",
        bad: "[Deal \"W:KQT2.AT.J6542.85 ... A8654.KQ5.T.QJT6 ...\"]\n",
        good: "[Deal \"W:KQT2.AT.J6542.85 - A8654.KQ5.T.QJT6 -\"]\n";
    DEAL_OTHER_FORM = "PBN0412", "deal-other-form", Error, Deal, "§3.4.11",
        "Deal written in another program's form",
        "The Deal is \"<first>:<hand> <hand> <hand> <hand>\", hands clockwise from \
         <first>, each \"S.H.D.C\" with an empty suit for a void (§3.4.11). Some \
         programs leave out \"<first>:\" (the hands are then read from North, the order \
         in which PBN lists the seats), prefix every hand with its own seat \
         (\"N:… E:… S:… W:…\", read when the seats go clockwise) or write a void suit \
         as `-` (\"QT54.-.9874.JT942\"). The deal is read and one diagnostic given in \
         place of an error for each character; the fix writes the Deal as PBN does.",
        bad: "[Deal \"N:QT54.-.9874.JT942 AKJ.AKQ.AKQ2.AKQ 9863.JT9876.J5.3 72.5432.T63.8765\"]\n",
        good: "[Deal \"N:QT54..9874.JT942 AKJ.AKQ.AKQ2.AKQ 9863.JT9876.J5.3 72.5432.T63.8765\"]\n";
    OPTIMUM_SCORE_NOT_OPPOSITE = "PBN0334", "optimum-score-not-opposite", Error, Tag, "§4.2.7",
        "OptimumScore gives NS and EW scores that are not opposite",
        "The NS <score> of an OptimumScore is opposite to the EW <score> (§4.2.7): \
         `NS 600 EW -600`. Two scores that are not each other's negation cannot both be \
         the optimum of the deal.",
        bad: "[OptimumScore \"NS 600 EW 600\"]\n",
        good: "[OptimumScore \"NS 600 EW -600\"]\n";
}
