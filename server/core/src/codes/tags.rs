//! PBN02xx: tags (names, duplicates, inheritance, dependencies, placement).

use super::codes;

codes! {
    TAG_NAME_CASE = "PBN0201", "tag-name-case", Warning, Tag, "§3.3",
        "tag name does not begin with an upper case letter",
        "Tag names are case sensitive and all tag names begin with an upper case letter \
         (§3.3). A name like `event` is not the `Event` tag: readers will treat it as an \
         unknown tag.",
        bad: "[event \"Club night\"]\n",
        good: "[Event \"Club night\"]\n";
    DUPLICATE_TAG = "PBN0202", "duplicate-tag", Warning, Tag, "§3.4",
        "tag occurs more than once in a game",
        "In import format a tag pair that already occurred is ignored; in export format \
         tag pairs may only occur once (§3.4). The first occurrence is the one that \
         counts; a different value in the repeated tag is named in the message. A \
         warning, as the severity policy has it: import format allows the repetition.",
        bad: "[Room \"Open\"]\n[Room \"Open\"]\n",
        good: "[Room \"Open\"]\n";
    FORBIDDEN_INHERITANCE = "PBN0203", "forbidden-inheritance", Error, Tag, "§4.8",
        "`#` or `##` used where inheritance is forbidden",
        "The tag value \"#\" (and values beginning with \"##\") are forbidden for the tags \
         Dealer, Vulnerable, Deal, Declarer, Contract, Auction, Play and the Note tags \
         (§4.8), so that every game can still be played on its own.",
        bad: "[Deal \"#\"]\n",
        good: "[Deal \"N:AKQ.AKQ.AKQ.AKQJ - - -\"]\n";
    AUCTION_NEEDS_DEALER = "PBN0204", "auction-needs-dealer", Error, Tag, "§3.1",
        "auction section without a Dealer tag before it",
        "If the auction section is present, then the tag Dealer must be filled before \
         the auction section (§3.1): the dealer makes the first call.",
        bad: "[Auction \"N\"]\n1C AP\n",
        good: "[Dealer \"N\"]\n[Auction \"N\"]\n1C AP\n";
    PLAY_NEEDS_TAGS = "PBN0205", "play-needs-tags", Error, Tag, "§3.1",
        "play section without Deal, Declarer or Contract before it",
        "If the play section is present, then the tags Deal, Declarer and Contract must \
         be filled before the play section (§3.1): the cards, the opening leader and the \
         trump follow from them. An end position (§3.10: a Contract of a denomination \
         only) needs no Declarer: its Play tag names the leader.",
        bad: "[Play \"W\"]\nSK H3 S4 S3\n",
        good: "[Deal \"N:…\"]\n[Declarer \"S\"]\n[Contract \"4H\"]\n[Play \"W\"]\nSK H3 S4 S3\n";
    NOTE_OUTSIDE_SECTION = "PBN0206", "note-outside-section", Error, Note, "§3.5.5",
        "Note tag outside the auction and play sections",
        "Note tags are placed in the auction section at the end of the calls, or in the \
         play section at the end of the cards; they may not be placed in the \
         identification section (§3.5.5, §3.6.5). A note here explains nothing. A Note \
         tag followed by data there forms a supplemental section named Note (§5.1), which \
         is just as misplaced; `pbn fmt` keeps such a game as written, since moving it \
         after the auction would make its data calls.",
        bad: "[Event \"x\"]\n[Note \"1:forcing\"]\n",
        good: "[Auction \"N\"]\n1C =1= AP\n[Note \"1:forcing\"]\n";
    DUPLICATE_NOTE = "PBN0207", "duplicate-note", Error, Note, "§3.5.5",
        "two Note tags with the same index in one section",
        "Note tags may occur more than once, but they must differ in the value of the \
         note index (§3.5.5, §3.6.5). With two notes numbered the same, a reference \
         `=n=` is ambiguous.",
        bad: "[Dealer \"N\"]\n[Auction \"N\"]\n1C =1= AP\n[Note \"1:forcing\"]\n[Note \"1:weak\"]\n",
        good: "[Dealer \"N\"]\n[Auction \"N\"]\n1C =1= 1D =2= AP\n[Note \"1:forcing\"]\n[Note \"2:weak\"]\n";
    UNKNOWN_TAG = "PBN0208", "unknown-tag", Warning, Tag, "§4.9",
        "tag name not defined by PBN 2.1",
        "PBN is expandable: a robust parser skips tags it does not know, and perhaps shows \
         a warning (§4.9). Tags known to come from widely used programs (BridgeComposer's \
         BCFlags, double-dummy tags, …) are reported as hints only. Check the spelling if \
         the tag was meant to be a standard one.",
        bad: "[Evnet \"Club night\"]\n",
        good: "[Event \"Club night\"]\n";
    UNEXPECTED_SECTION_DATA = "PBN0209", "unexpected-section-data", Warning, Tag, "§5.1",
        "data after a tag that does not start a section",
        "Text after a tag pair forms a supplemental section (§5.1). This tag is an \
         identification tag that has no section data, so the text is probably a comment \
         without its braces. Put free text in `{…}`.",
        bad: "[Deal \"N:…\"] the famous hand\n",
        good: "[Deal \"N:…\"] {the famous hand}\n";
    TAGS_OUT_OF_ORDER = "PBN0210", "tag-before-dependency", Warning, Tag, "§3.1",
        "tag needed by a section comes after it",
        "In case of an auction or play section the needed tags and their order are \
         prescribed (§3.1): Dealer before the auction; Deal, Declarer and Contract before \
         the play. The tag is present but comes after the section.",
        bad: "[Auction \"N\"]\n1C AP\n[Dealer \"N\"]\n",
        good: "[Dealer \"N\"]\n[Auction \"N\"]\n1C AP\n";
    COMMENT_IN_TAG = "PBN0211", "comment-in-tag-pair", Error, Tag, "§3.8",
        "comment inside a tag pair",
        "Comments cannot appear inside any token, nor inside a tag pair (§3.8): a comment \
         refers to what precedes it, and a tag pair is one unit. Put the comment after the \
         closing bracket.",
        bad: "[Event {where} \"Club night\"]\n",
        good: "[Event \"Club night\"] {where}\n";
    DEAL_ID_REUSED = "PBN0212", "deal-id-reused", Warning, Tag, "§4.1.2",
        "DealId already identifies a different deal",
        "A DealId identifies a deal by a unique value: no two PBN deals should have the \
         same tag value for DealId (§4.1.2), so that programs can find all games of one \
         deal, for instance for duplicate scoring. The games of one deal (the tables of a \
         team match) share its DealId; another deal needs another DealId. The check runs \
         across the games of a file; the first game with a DealId and a readable Deal \
         decides that DealId's deal, and a later game with the same DealId and other cards \
         is reported on its DealId, naming that first game.",
        bad: "[DealId \"club-1\"]\n[Deal \"N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432\"]\n\n[DealId \"club-1\"]\n[Deal \"N:T987.JT9.JT9.JT9 AKQJ.AKQ.AKQ.AKQ 6543.876.876.876 2.5432.5432.5432\"]\n",
        good: "[DealId \"club-1\"]\n[Deal \"N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432\"]\n\n[DealId \"club-2\"]\n[Deal \"N:T987.JT9.JT9.JT9 AKQJ.AKQ.AKQ.AKQ 6543.876.876.876 2.5432.5432.5432\"]\n";
}
