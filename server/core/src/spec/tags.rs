//! The tag names of PBN 2.1 (§3.1, §3.4, chapter 4, chapter 5) and the
//! tags written by widely used programs.

/// The 15 tags of the Mandatory Tag Set, in export order (§3.4).
pub const MANDATORY: [&str; 15] = [
    "Event",
    "Site",
    "Date",
    "Board",
    "West",
    "North",
    "East",
    "South",
    "Dealer",
    "Vulnerable",
    "Deal",
    "Scoring",
    "Declarer",
    "Contract",
    "Result",
];

/// Where a tag stands in export order (§3.1, §3.4), to compare: the
/// mandatory tags in their order, supplemental tags alphabetically, the
/// auction, the play, then the other sections (`section`: the tag starts
/// section data, §5) alphabetically.
pub fn export_rank(name: &str, section: bool) -> (u8, usize, &str) {
    match name {
        "Auction" => (2, 0, ""),
        "Play" => (3, 0, ""),
        _ if section => (4, 0, name),
        _ => match MANDATORY.iter().position(|m| *m == name) {
            Some(i) => (0, i, ""),
            None => (1, 0, name),
        },
    }
}

/// Section-starting tags of chapter 3.
pub const SECTION_TAGS: [&str; 3] = ["Auction", "Play", "Note"];

/// Supplemental tags of chapter 4.
pub const SUPPLEMENTAL: [&str; 43] = [
    "Competition",
    "DealId",
    "Description",
    "FrenchMP",
    "Generator",
    "Hidden",
    "Room",
    "Termination",
    "Score",
    "ScoreIMP",
    "ScoreMP",
    "ScorePercentage",
    "ScoreRubber",
    "ScoreRubberHistory",
    "OptimumScore",
    "BidSystemEW",
    "BidSystemNS",
    "PairEW",
    "PairNS",
    "WestNA",
    "NorthNA",
    "EastNA",
    "SouthNA",
    "WestType",
    "NorthType",
    "EastType",
    "SouthType",
    "EventDate",
    "EventSponsor",
    "HomeTeam",
    "Round",
    "Section",
    "Stage",
    "Table",
    "VisitTeam",
    "Time",
    "UTCDate",
    "UTCTime",
    "TimeControl",
    "TimeCall",
    "TimeCard",
    "Annotator",
    "AnnotatorNA",
];

/// A tag of chapters 3 and 4 that takes no section data (§5.1): text
/// after it is free text that belongs in a comment (PBN0209). `Note`
/// takes none either, but a line after a note is often the note's own
/// continuation, which the checker leaves as written.
pub fn takes_no_section_data(name: &str) -> bool {
    MANDATORY.contains(&name) || SUPPLEMENTAL.contains(&name)
}

/// Application-specific tags of chapter 4.7 and table tags of chapter 5.
pub const MISC_AND_TABLES: [&str; 10] = [
    "Application",
    "Mode",
    "ActionTable",
    "AuctionTimeTable",
    "InstantScoreTable",
    "OptimumPlayTable",
    "OptimumResultTable",
    "PlayTimeTable",
    "ScoreTable",
    "TotalScoreTable",
];

/// The table tags of chapter 5 (§5.3-§5.10): [`MISC_AND_TABLES`] after
/// its two application tags.
pub const TABLES: &[&str] = MISC_AND_TABLES.split_at(2).1;

/// Tags written by widely used programs, not part of PBN 2.1 (§4.9): the
/// program and what the tag holds, for hover and `pbn check` (reported as
/// hints, never as unknown tags). Tables among them are read by their
/// column spec like those of chapter 5 (§5.2).
pub const VENDOR: &[(&str, &str, &str)] = &[
    ("BCFlags", "Bridge Composer", "Display flags: which parts of the game (diagram, auction, play, analysis) are shown, as a hexadecimal bit set."),
    ("BCNote", "Bridge Composer", "A note attached to the game."),
    ("DoubleDummyTricks", "Bridge Composer", "The double-dummy tricks: 20 hexadecimal digits, for declarer N, S, E and W in turn, each in NT, S, H, D, C. The server verifies it with `check.dd`."),
    ("ParContract", "Bridge Composer", "The par contract(s) with the side or seat that declares them and the result, e.g. \"NS 4S=\" or \"EW 6DX-2\". The server verifies it with `check.dd`."),
    ("OptimumOpeningLeadTable", "Bridge Composer", "A table of the best opening leads: for each leader and denomination, the tricks the defenders take double-dummy and the leads that achieve it, suit by suit."),
    ("RotationNote", "Bridge Composer", "How the deal was rotated from its original orientation."),
    ("OriginalRotationBasis", "Bridge Composer", "The seat the deal's rotation was based on."),
    ("OptimumContract", "analysis programs", "The double-dummy optimum contract."),
    ("Ability", "Deep Finesse", "Double-dummy tricks per seat: `<seat>:` and one hexadecimal digit per denomination."),
    ("Minimax", "Deep Finesse", "The minimax contract, its declarer and North-South's score, e.g. \"4HS420\": 4H by South, NS +420."),
    ("Views", "analysis programs", "Which hands a viewer shows."),
    ("PlayerCount", "scoring programs", "The number of players."),
    ("ContractLevel", "teaching programs", "The level of the contract."),
    ("Category", "CSVtoPBN", "The lesson's category."),
    ("Difficulty", "CSVtoPBN", "The lesson's difficulty."),
    ("Student", "CSVtoPBN", "The student's seat."),
];

/// The program that writes a tag of [`VENDOR`], and what the tag holds.
pub fn vendor(name: &str) -> Option<(&'static str, &'static str)> {
    VENDOR
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|(_, app, d)| (*app, *d))
}

/// Tags for which `#` and `##` are forbidden (§4.8).
pub const NO_INHERIT: [&str; 8] = [
    "Dealer",
    "Vulnerable",
    "Deal",
    "Declarer",
    "Contract",
    "Auction",
    "Play",
    "Note",
];

/// Every tag of the standard with its § and the description hover and
/// completion show: (tag name, §, description).
pub const DOCS: &[(&str, &str, &str)] = &[
    ("Event", "§3.4.1", "The name of the tournament or match. Should be reasonably descriptive; abbreviations are to be avoided."),
    ("Site", "§3.4.2", "The location of the event: city and region, with an ISO 3166 three-letter country code, e.g. \"Amsterdam, The Netherlands NLD\"."),
    ("Date", "§3.4.3", "The starting date of the game, YYYY.MM.DD; unknown digits are `?`, e.g. \"1995.06.??\"."),
    ("Board", "§3.4.4", "The board number of the deal: a positive integer."),
    ("West", "§3.4.5", "The West player(s), as in a telephone directory: \"Family, First\"; several players separated by `;`."),
    ("North", "§3.4.6", "The North player(s), as for West."),
    ("East", "§3.4.7", "The East player(s), as for West."),
    ("South", "§3.4.8", "The South player(s), as for West."),
    ("Dealer", "§3.4.9", "The dealer: W, N, E or S."),
    ("Vulnerable", "§3.4.10", "Vulnerability: None (Love, -), NS, EW, All (Both). Export format uses None and All."),
    ("Deal", "§3.4.11", "The cards: \"<first>:<hand> <hand> <hand> <hand>\" clockwise from <first>, each hand S.H.D.C ranks (AKQJT98765432), `-` for an unknown hand."),
    ("Scoring", "§3.4.12", "The scoring method: fields separated by `;`, a basic system (MP, IMP, Rubber, …) and modifiers (Butler, Cross, …)."),
    ("Declarer", "§3.4.13", "The declarer: W, N, E or S; `^X` when declarer and dummy were swapped; \"\" when all passed."),
    ("Contract", "§3.4.14", "The contract: \"Pass\" or <level><denomination><risk>, e.g. 4S, 3NTX, 6HXX; for an end position only the denomination."),
    ("Result", "§3.4.15", "Tricks won: \"<n>\" by declarer, or \"NS n\", \"EW n\", \"NS n EW m\"; `^` when it differs from the tricks actually won; \"\" when all passed."),
    ("Auction", "§3.5", "Starts the auction section; the value is the seat of the first call (the dealer in export format)."),
    ("Play", "§3.6", "Starts the play section; the value is the seat of the first column (the opening leader in export format)."),
    ("Note", "§3.5.5", "\"<n>:<text>\" explains the note reference =n= of a call (in the auction section) or a card (in the play section)."),
    ("Competition", "§4.1.1", "The type of competition: Cavendish, Chicago, Individuals, Pairs, Rubber, Teams."),
    ("DealId", "§4.1.2", "A unique identification of the deal, to find all games played with it."),
    ("Description", "§4.1.3", "An arbitrary description of the game."),
    ("FrenchMP", "§4.1.4", "Whether French scoring is used: Yes or No (default No)."),
    ("Generator", "§4.1.5", "How the cards were generated: the program, possibly with its seed."),
    ("Hidden", "§4.1.6", "The hands a viewer hides initially, e.g. \"WE\"."),
    ("Room", "§4.1.7", "Open or Closed (teams)."),
    ("Termination", "§4.1.8", "Why the game ended: abandoned, adjudication, normal, time forfeit, unterminated, …"),
    ("Score", "§4.2.1", "The points of the game: \"<score>\" for declarer, or \"NS n\", \"EW n\", \"NS n EW m\"."),
    ("ScoreIMP", "§4.2.2", "The score in IMPs, in the formats of Score; decimals with a dot."),
    ("ScoreMP", "§4.2.3", "The score in MatchPoints, in the formats of Score."),
    ("ScorePercentage", "§4.2.4", "The percentage score, 0..100, in the formats of Score."),
    ("ScoreRubber", "§4.2.5", "The rubber score \"<above>/<below>\", in the formats of Score."),
    ("ScoreRubberHistory", "§4.2.6", "The rubber scores at the start of the deal: \"NS <history> EW <history>\"."),
    ("OptimumScore", "§4.2.7", "The double-dummy optimum score: \"NS n\", \"EW n\" or both."),
    ("BidSystemEW", "§4.3.1", "The bidding system of East-West."),
    ("BidSystemNS", "§4.3.1", "The bidding system of North-South."),
    ("PairEW", "§4.3.2", "The East-West partnership."),
    ("PairNS", "§4.3.2", "The North-South partnership."),
    ("WestNA", "§4.3.3", "West's e-mail or network address."),
    ("NorthNA", "§4.3.3", "North's e-mail or network address."),
    ("EastNA", "§4.3.3", "East's e-mail or network address."),
    ("SouthNA", "§4.3.3", "South's e-mail or network address."),
    ("WestType", "§4.3.4", "West's player type: human or program."),
    ("NorthType", "§4.3.4", "North's player type: human or program."),
    ("EastType", "§4.3.4", "East's player type: human or program."),
    ("SouthType", "§4.3.4", "South's player type: human or program."),
    ("EventDate", "§4.4.1", "The starting date of the event, YYYY.MM.DD."),
    ("EventSponsor", "§4.4.2", "The sponsor of the event."),
    ("HomeTeam", "§4.4.3", "The home team."),
    ("Round", "§4.4.4", "The playing round; multipart rounds separated by periods, e.g. \"1.A.2\"."),
    ("Section", "§4.4.5", "The playing section of a tournament: Open, Ladies, Reserve, …"),
    ("Stage", "§4.4.6", "The stage of a multistage event: Preliminary, Semifinal, …"),
    ("Table", "§4.4.7", "The table in a tournament, normally a positive integer."),
    ("VisitTeam", "§4.4.8", "The visiting team."),
    ("Time", "§4.5.1", "The local start time of the game, HH:MM:SS."),
    ("UTCDate", "§4.5.2", "The date in UTC, YYYY.MM.DD."),
    ("UTCTime", "§4.5.3", "The time in UTC, HH:MM:SS."),
    ("TimeControl", "§4.6.1", "\"<games>/<minutes>\": so many games within so many minutes; \"\" for no limit."),
    ("TimeCall", "§4.6.2", "The time limit for a call, in seconds."),
    ("TimeCard", "§4.6.3", "The time limit for a card, in seconds."),
    ("Annotator", "§4.7.1", "The annotator(s) of the game."),
    ("AnnotatorNA", "§4.7.2", "The annotator's e-mail or network address."),
    ("Application", "§4.7.3", "An application (program) whose specific data follow this tag in comments."),
    ("Mode", "§4.7.4", "The playing mode: EM, IBS, OKB, TABLE, TC."),
    ("ActionTable", "§5.3", "A table of percentages for actions (calls, leads, contracts)."),
    ("AuctionTimeTable", "§5.4", "Thinking times of the calls, one row per call, in auction order."),
    ("InstantScoreTable", "§5.5", "Score ranges with their IMPs and percentages."),
    ("OptimumPlayTable", "§5.6", "Double-dummy optimum cards for each play position."),
    ("OptimumResultTable", "§5.7", "Double-dummy tricks per declarer and denomination (20 rows)."),
    ("PlayTimeTable", "§5.8", "Thinking times of the cards, one row per card, in play order."),
    ("ScoreTable", "§5.9", "The results of the deal in a tournament."),
    ("TotalScoreTable", "§5.10", "The total scores of (part of) a tournament."),
];

/// The description of a tag, with its section.
pub fn doc(name: &str) -> Option<(&'static str, &'static str)> {
    DOCS.iter()
        .find(|(n, _, _)| *n == name)
        .map(|(_, s, d)| (*s, *d))
}

/// A tag the standard defines (chapter 3, 4 or 5).
pub fn is_known(name: &str) -> bool {
    MANDATORY.contains(&name)
        || SECTION_TAGS.contains(&name)
        || SUPPLEMENTAL.contains(&name)
        || MISC_AND_TABLES.contains(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every tag of the standard has its § and text, once; nothing else has.
    #[test]
    fn docs_cover_the_standard_tags() {
        for (name, section, text) in DOCS {
            assert!(is_known(name), "{name}");
            assert!(section.starts_with('§') && !text.is_empty(), "{name}");
            assert_eq!(DOCS.iter().filter(|(n, _, _)| n == name).count(), 1);
        }
        let known = MANDATORY
            .iter()
            .chain(&SECTION_TAGS)
            .chain(&SUPPLEMENTAL)
            .chain(&MISC_AND_TABLES);
        for name in known {
            assert!(doc(name).is_some(), "{name}");
        }
        assert_eq!(doc("Dealer"), Some(("§3.4.9", "The dealer: W, N, E or S.")));
        assert_eq!(doc("BCFlags"), None);
        assert!(!is_known("BCFlags"));
        // Application tags are not the standard's, and each is named once.
        for (name, app, text) in VENDOR {
            assert!(
                !is_known(name) && !app.is_empty() && !text.is_empty(),
                "{name}"
            );
            assert_eq!(VENDOR.iter().filter(|(n, _, _)| n == name).count(), 1);
        }
        assert_eq!(
            vendor("DoubleDummyTricks").map(|v| v.0),
            Some("Bridge Composer")
        );
    }

    #[test]
    fn tables_are_chapter_5() {
        assert_eq!(TABLES.len(), 8);
        assert_eq!(TABLES[0], "ActionTable");
        for t in TABLES {
            assert!(doc(t).is_some_and(|(s, _)| s.starts_with("§5.")), "{t}");
        }
    }
}
