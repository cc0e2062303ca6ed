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
    SCORE_TABLE_IMPS = "PBN0808", "score-table-imps", Warning, Table, "§3.4.12",
        "ScoreTable IMPs or Butler datum differ from the board's scores",
        "When the Scoring tag says how IMPs are computed (§3.4.12), each ScoreTable row's \
         IMP_NS and IMP_EW, and the ButlerDatum, follow from the rows' NS scores: `Butler` \
         IMPs each score against the board's datum (the `Mean` of the scores, or their \
         `Median`, rounded to the nearest 10; `Butler-2` leaves out the highest and the \
         lowest), `Cross` against every other score and sums (`Cross1` divides by the \
         number of scores, `Cross2` by the number of comparisons), and plain `IMP` on a \
         board played at two tables compares the two. The scale is that of 1962, or \
         `IMP_1948`'s (the scale of `IMP_1961` is not known, so its IMPs are not \
         checked). A figure that differs was not recomputed after a score changed, or the \
         score is the wrong one; the fix writes the computed value (safe, as Scoring names \
         the method; unsafe when most of the table's figures differ, as the file then \
         computes them some other way), and `pbn score --write` writes them all.",
        bad: "[Scoring \"IMP;Butler\"]\n[ScoreTable \"Score_NS;IMP_NS;ButlerDatum\"]\n420 5 190\n-50 -6 190\n",
        good: "[Scoring \"IMP;Butler\"]\n[ScoreTable \"Score_NS;IMP_NS;ButlerDatum\"]\n420 6 190\n-50 -6 190\n";
    SCORE_TABLE_MATCHPOINTS = "PBN0809", "score-table-matchpoints", Warning, Table, "§3.4.12",
        "ScoreTable matchpoints or percentages differ from the board's scores",
        "With matchpoint scoring (§3.4.12: `MP`, `MatchPoints`, `BAM`), each ScoreTable \
         row's MP_NS counts the other tables' NS scores it beat and tied: 2 and 1 by `MP1` \
         (§4.2.3's ScoreMP), 1 and ½ by `MP2` (and BAM); MP_EW is the top minus MP_NS, \
         Percentage_NS the MP_NS as a percentage of the top and Percentage_EW 100 minus \
         it. Without `MP1` or `MP2` the scale is the one the stated figures fit. A row \
         with a `Multiplicity` stands for that many tables; when some rows have no score \
         (adjusted, `-`, `?`), the others' matchpoints are factored up to the full top \
         (Neuberg). A figure is compared to the decimals it is written with. The fix \
         writes the computed value: safe where Scoring names the scale (MP cells on a \
         scale the figures fit, or a table whose figures mostly differ, are unsafe).",
        bad: "[Scoring \"MP;MP2\"]\n[ScoreTable \"Score_NS;MP_NS;MP_EW\"]\n420 1 1\n170 1 1\n-50 0 2\n",
        good: "[Scoring \"MP;MP2\"]\n[ScoreTable \"Score_NS;MP_NS;MP_EW\"]\n420 2 0\n170 1 1\n-50 0 2\n";
    SCORE_TAG_FIGURES = "PBN0810", "score-tag-figures", Warning, Table, "§4.2.3",
        "ScoreMP, ScoreIMP or ScorePercentage differ from the game's ScoreTable row",
        "A game's ScoreMP, ScoreIMP and ScorePercentage (§4.2.2–§4.2.4) are the figures of \
         its own score (its Score tag, else the score of its Contract, Declarer and \
         Result) among the board's results in its ScoreTable, computed as the Scoring tag \
         says (see PBN0808 and PBN0809). A value that differs was not recomputed; the fix \
         writes the computed one (unsafe for ScoreMP when Scoring names no scale).",
        bad: "[Scoring \"MP;MP1\"]\n[Score \"NS 420\"]\n[ScoreMP \"NS 2\"]\n[ScoreTable \"Score_NS\"]\n420\n170\n-50\n",
        good: "[Scoring \"MP;MP1\"]\n[Score \"NS 420\"]\n[ScoreMP \"NS 4\"]\n[ScoreTable \"Score_NS\"]\n420\n170\n-50\n";
    TOTAL_SCORE_TABLE = "PBN0811", "total-score-table", Warning, Table, "§5.10",
        "TotalScoreTable total differs from the pair's boards in the file",
        "A TotalScoreTable's TotalIMP (or TotalScoreIMP), MeanIMP, TotalMP, MeanMP, \
         TotalPercentage and MeanPercentage (§5.10) are the pair's figures summed (or \
         averaged) over its boards: each board's figures computed from its ScoreTable as \
         the Scoring tag says (PBN0808, PBN0809), for the pair's rows by PairId_NS and \
         PairId_EW (a pair numbered in both directions is one pair, unless a row has the \
         same PairId on both sides). Checked only where the file holds all of the pair's \
         boards (its NrBoards, when given); `pbn score` says which totals it cannot \
         check. The fix writes the computed total; it is unsafe, as it is made from every \
         game of the file, not from its own alone (`pbn score --write` writes it).",
        bad: "[Board \"1\"]\n[Scoring \"IMP\"]\n[ScoreTable \"PairId_NS;PairId_EW;Score_NS\"]\n1 2 620\n3 4 -100\n[TotalScoreTable \"PairId;TotalIMP\"]\n1 10\n2 -12\n",
        good: "[Board \"1\"]\n[Scoring \"IMP\"]\n[ScoreTable \"PairId_NS;PairId_EW;Score_NS\"]\n1 2 620\n3 4 -100\n[TotalScoreTable \"PairId;TotalIMP\"]\n1 12\n2 -12\n";
}

/// The codes of the scoring arithmetic: what `pbn score --write` fixes.
pub static FIGURE_CODES: [&super::CodeInfo; 4] = [
    &SCORE_TABLE_IMPS,
    &SCORE_TABLE_MATCHPOINTS,
    &SCORE_TAG_FIGURES,
    &TOTAL_SCORE_TABLE,
];
