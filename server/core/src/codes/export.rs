//! PBN10xx: export format (§2.1, §2.3, §3 and §5 rules for files written
//! under program control). Reported only by `pbn check --export`, or when the
//! file declares `% EXPORT`.

use super::codes;

codes! {
    EXPORT_MISSING_TAG = "PBN1001", "export-missing-tag", Error, Export, "§3.4",
        "mandatory tag missing in export format",
        "In export format the identification section contains the 15 tags of the \
         Mandatory Tag Set: Event, Site, Date, Board, West, North, East, South, Dealer, \
         Vulnerable, Deal, Scoring, Declarer, Contract, Result (§3.4). An unknown value \
         is written \"?\"; an inappropriate one as \"\". A tag may be omitted when a \
         previous game gave it with `##` (§4.8).",
        bad: "[Event \"Club\"]\n",
        good: "[Event \"Club\"]\n[Site \"?\"]\n[Date \"?\"]\n[Board \"?\"]\n[West \"?\"]\n[North \"?\"]\n[East \"?\"]\n[South \"?\"]\n[Dealer \"?\"]\n[Vulnerable \"?\"]\n[Deal \"?\"]\n[Scoring \"?\"]\n[Declarer \"?\"]\n[Contract \"?\"]\n[Result \"?\"]\n";
    EXPORT_TAG_ORDER = "PBN1002", "export-tag-order", Error, Export, "§3.4",
        "tags or sections out of export order",
        "Export format orders a game as: the 15 mandatory tags in their fixed order, the \
         supplemental tags sorted alphabetically by name, the auction section, the play \
         section, then the supplemental sections sorted alphabetically by tag name \
         (§3.1, §3.4).",
        bad: "[Site \"x\"]\n[Event \"y\"]\n",
        good: "[Event \"y\"]\n[Site \"x\"]\n";
    EXPORT_TAG_LAYOUT = "PBN1003", "export-tag-layout", Error, Export, "§3.3",
        "tag pair not written as `[Name \"value\"]` alone on its line",
        "Export format requires each tag pair to appear left justified on a line by \
         itself, with no white space after `[` or before `]` and a single space between \
         the tag name and the tag value (§3.3).",
        bad: "[ Event  \"x\" ] [Site \"y\"]\n",
        good: "[Event \"x\"]\n[Site \"y\"]\n";
    EXPORT_LINE_ENDING = "PBN1004", "export-line-ending", Error, Export, "§2.3",
        "line not ended by CRLF",
        "In export format a text line is concluded by the CRLF pair (carriage return, \
         line feed) (§2.3). `pbn fmt --eol crlf` converts the file.",
        bad: "[Event \"x\"]<LF>\n",
        good: "[Event \"x\"]<CR><LF>\n";
    EXPORT_TAB = "PBN1005", "export-tab", Error, Export, "§2.3",
        "tab character in export format",
        "Tab characters, both horizontal and vertical, are not permitted in the export \
         format (§2.3). Use spaces.",
        bad: "[Event \"x\"]\t; comment\n",
        good: "[Event \"x\"] ; comment\n";
    EXPORT_LOWERCASE = "PBN1006", "export-lowercase", Error, Export, "§3.11",
        "lower case where export format requires upper case",
        "Import format allows lower case for seats, suits, ranks, calls and \
         vulnerability to ease human input; export format allows only upper case \
         (`Pass`, `None`, `All`) (§3.11).",
        bad: "[Auction \"n\"]\n1c pass pass pass\n",
        good: "[Auction \"N\"]\n1C Pass Pass Pass\n";
    EXPORT_SUFFIX = "PBN1007", "export-suffix", Error, Export, "§3.5.2",
        "suffix annotation instead of a NAG",
        "In export format the suffix has been translated into the corresponding NAG: \
         `!` `?` `!!` `??` `!?` `?!` are $1..$6 after a call and $7..$12 after a card \
         (§3.5.2, §3.6.2, §3.7).",
        bad: "[Dealer \"N\"]\n[Auction \"N\"]\n1S !! =1= $25 Pass Pass Pass\n",
        good: "[Dealer \"N\"]\n[Auction \"N\"]\n1S =1= $3 $25 Pass Pass Pass\n";
    EXPORT_ANNOTATION_ORDER = "PBN1008", "export-annotation-order", Error, Export, "§3.5.2",
        "annotations not in export order",
        "In export format the annotations of a call or card are: the optional note \
         reference, then the NAGs in increasing order (§3.5.2, §3.6.2).",
        bad: "[Dealer \"N\"]\n[Auction \"N\"]\n1S $25 =1= $3 Pass Pass Pass\n",
        good: "[Dealer \"N\"]\n[Auction \"N\"]\n1S =1= $3 $25 Pass Pass Pass\n";
    EXPORT_AUCTION_START = "PBN1009", "export-auction-start", Error, Export, "§3.5",
        "auction does not start with the dealer",
        "In export format the player in the Auction tag is always the dealer, and the \
         dealer's call starts left justified at a new line (§3.5); no `-` padding.",
        bad: "[Dealer \"N\"]\n[Auction \"W\"]\n- 1C Pass Pass\nPass\n",
        good: "[Dealer \"N\"]\n[Auction \"N\"]\n1C Pass Pass Pass\n";
    EXPORT_PLAY_START = "PBN1010", "export-play-start", Error, Export, "§3.6",
        "play does not start with the opening leader",
        "In export format the player in the Play tag is always the opening leader, \
         declarer's left hand opponent (§3.6).",
        bad: "[Declarer \"S\"]\n[Play \"N\"]\n",
        good: "[Declarer \"S\"]\n[Play \"W\"]\n";
    EXPORT_LINE_LAYOUT = "PBN1011", "export-line-layout", Error, Export, "§3.5",
        "auction or play line does not hold 4 calls or cards",
        "Each auction line contains 4 calls and each play line 4 cards (one trick); only \
         due to much annotation may a line contain fewer (§3.5, §3.6). Elements are \
         separated by a single space.",
        bad: "[Dealer \"N\"]\n[Auction \"N\"]\n1C Pass 1H Pass 1NT\nPass Pass Pass\n",
        good: "[Dealer \"N\"]\n[Auction \"N\"]\n1C Pass 1H Pass\n1NT Pass Pass Pass\n";
    EXPORT_DEAL_FORM = "PBN1012", "export-deal-form", Error, Export, "§3.4.11",
        "Deal not in export form",
        "In export format the first hand of the Deal is the dealer's and the ranks of \
         each suit are given in descending order (§3.4.11).",
        bad: "[Dealer \"N\"]\n[Deal \"W:…\"]\n",
        good: "[Dealer \"N\"]\n[Deal \"N:…\"]\n";
    EXPORT_VALUE_FORM = "PBN1013", "export-value-form", Error, Export, "§3.4.10",
        "tag value not in its export form",
        "Export format fixes some values: Vulnerable is None, NS, EW or All (§3.4.10); \
         Result is the number of tricks won by declarer (§3.4.15).",
        bad: "[Vulnerable \"Both\"]\n",
        good: "[Vulnerable \"All\"]\n";
    EXPORT_GAME_SEPARATOR = "PBN1014", "export-game-separator", Error, Export, "§3",
        "games not separated by exactly one empty line",
        "In export format each game except the first starts with an empty text line (no \
         characters, not even spaces) (§3).",
        bad: "[Event \"a\"]\n  \n\n[Event \"b\"]\n",
        good: "[Event \"a\"]\n\n[Event \"b\"]\n";
    EXPORT_DUPLICATE_TAG = "PBN1015", "export-duplicate-tag", Error, Export, "§3.4",
        "tag pair occurs more than once",
        "In export format tag pairs may only occur once in a game (§3.4).",
        bad: "[Room \"Open\"]\n[Room \"Open\"]\n",
        good: "[Room \"Open\"]\n";
    EXPORT_SPACING = "PBN1016", "export-spacing", Error, Export, "§3.8",
        "tokens on a line not separated by a single space",
        "In export format a single space follows a note reference or a NAG when another \
         token follows on the line (§3.5.4, §3.7), a single space precedes a comment that \
         does not start a line, and a comment after a tag pair starts a new line (§3.8); \
         the section elements on a line are separated by a single space (§5.1).",
        bad: "[Event \"x\"] {c}\n[Dealer \"N\"]\n[Auction \"N\"]\n1C =1=  $3{a} Pass Pass Pass\n[Note \"1:x\"]\n",
        good: "[Event \"x\"]\n{c}\n[Dealer \"N\"]\n[Auction \"N\"]\n1C =1= $3 {a} Pass Pass Pass\n[Note \"1:x\"]\n";
    EXPORT_TABLE_ROW = "PBN1017", "export-table-row", Error, Export, "§5.2",
        "table row not on one line, not padded, or with extra spaces",
        "In export format all the table elements of a row are on one text line, separated \
         by a single space; more spaces only pad an element to the minimum width of its \
         column (`\\<width>`, after the element for `L`, before it for `R`), and an \
         element narrower than that width is padded to it (§5.2).",
        bad: "[ScoreTable \"Rank\\\\2R;Score_NS\"]\n1  620\n2\n600\n",
        good: "[ScoreTable \"Rank\\\\2R;Score_NS\"]\n 1 620\n 2 600\n";
}
