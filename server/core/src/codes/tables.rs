//! PBN08xx: supplemental sections and tables (§5).

use super::codes;

codes! {
    TABLE_ELEMENT_COUNT = "PBN0801", "table-element-count", Error, Table, "§5.2",
        "number of table elements is not a multiple of the column count",
        "The section data of a table are structured in rows and columns; every row has \
         one element per column given in the tag value (§5.2). Use `?` for an unknown \
         element and `-` for an irrelevant one.",
        bad: "[OptimumResultTable \"Declarer;Denomination;Result\"]\nN NT 6\nN S\n",
        good: "[OptimumResultTable \"Declarer;Denomination;Result\"]\nN NT 6\nN S ?\n";
    COMMENT_IN_SECTION = "PBN0802", "comment-in-section-data", Warning, Table, "§5.1",
        "comment after a section element",
        "Only the tag pair of a section may be followed by commentary; commentary after a \
         section element is forbidden (§5.1).",
        bad: "[ScoreTable \"Rank;Score_NS\"]\n1 620 {top}\n",
        good: "[ScoreTable \"Rank;Score_NS\"] {top}\n1 620\n";
    TABLE_NEEDS_SECTION = "PBN0803", "table-needs-section", Error, Table, "§5.4",
        "time table without the section it times",
        "An Auction section must be given before an AuctionTimeTable, and a Play section \
         before a PlayTimeTable (§5.4, §5.8); each row gives the time of one call or card \
         in the same order.",
        bad: "[AuctionTimeTable \"Time\"]\n10\n",
        good: "[Auction \"N\"]\n1C AP\n[AuctionTimeTable \"Time\"]\n10\n5\n";
    TABLE_ROW_COUNT = "PBN0804", "table-row-count", Warning, Table, "§5.4",
        "time table rows do not match the calls or cards",
        "Each row of an AuctionTimeTable (PlayTimeTable) gives the thinking time of one \
         call (card), in the order of the Auction (Play) section (§5.4, §5.8).",
        bad: "[Auction \"N\"]\n1C Pass Pass Pass\n[AuctionTimeTable \"Time\"]\n10\n",
        good: "[Auction \"N\"]\n1C Pass Pass Pass\n[AuctionTimeTable \"Time\"]\n10\n2\n1\n1\n";
    SCORE_RANGES = "PBN0805", "instant-score-ranges", Error, Table, "§5.5",
        "InstantScoreTable ranges overlap or leave a gap",
        "The score ranges of an InstantScoreTable do not overlap, and all of them together \
         cover the whole score space (§5.5): `*,<s>` is below s, `<s1>,<s2>` between, \
         `<s>` equal and `<s>,*` above. A score two ranges hold, or none, cannot be looked \
         up.",
        bad: "[InstantScoreTable \"ScoreRange_NS;Percentage_NS\"]\n*,100 0\n50,* 100\n",
        good: "[InstantScoreTable \"ScoreRange_NS;Percentage_NS\"]\n*,100 0\n100 50\n100,* 100\n";
    COLUMN_ORDER = "PBN0806", "column-order", Error, Table, "§5.2",
        "rows out of the order their column announces",
        "A `+` before a column name says its elements are descending (highest value in \
         the first row), a `-` that they are ascending (§5.2). A row out of that order \
         contradicts the column name: sort the rows, or drop the sign.",
        bad: "[ScoreTable \"Rank;+Score_NS\"]\n1 600\n2 620\n",
        good: "[ScoreTable \"Rank;+Score_NS\"]\n1 620\n2 600\n";
    SCORE_TABLE_SCORE = "PBN0807", "score-table-score", Warning, Table, "§5.9",
        "ScoreTable score differs from the row's contract and result",
        "Score_NS and Score_EW of a ScoreTable row are the trick score of its Contract, \
         Declarer and Result (§5.9) at the vulnerability of the game. A row whose score \
         differs from that duplicate score is a typing error, or an adjusted score: mark an \
         artificial score with `^` (§5.2). As for the Score tag (PBN0907), only a warning.",
        bad: "[Vulnerable \"None\"]\n[ScoreTable \"Contract;Declarer;Result;Score_NS\"]\n4S N 10 450\n",
        good: "[Vulnerable \"None\"]\n[ScoreTable \"Contract;Declarer;Result;Score_NS\"]\n4S N 10 420\n";
    SCORE_TABLE_BUTLER = "PBN0808", "score-table-butler", Warning, Table, "§3.4.12",
        "ScoreTable Butler datum or IMPs differ from the board's scores",
        "With Butler scoring (§3.4.12: `Butler`, or `Butler-2` leaving out the highest and \
         the lowest score; the datum the `Mean` of the scores, or their `Median`) each \
         row's NS score is IMPed against the board's datum, rounded to the nearest 10, by \
         the IMP scale of 1962. A ButlerDatum, IMP_NS or IMP_EW that differs was not \
         recomputed after a score changed, or the score is the wrong one; the fix \
         (unsafe: it changes what the file states) writes the computed value.",
        bad: "[Scoring \"IMP;Butler\"]\n[ScoreTable \"Score_NS;IMP_NS;ButlerDatum\"]\n420 5 190\n-50 -6 190\n",
        good: "[Scoring \"IMP;Butler\"]\n[ScoreTable \"Score_NS;IMP_NS;ButlerDatum\"]\n420 6 190\n-50 -6 190\n";
}
