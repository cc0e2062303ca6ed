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

/// Tags written by widely used programs; reported as hints, never warnings.
pub const VENDOR: [&str; 16] = [
    "BCFlags",
    "DoubleDummyTricks",
    "ParContract",
    "OptimumContract",
    "Ability",
    "Minimax",
    "Views",
    "BCNote",
    "TotalScoreTable",
    "PlayerCount",
    "RotationNote",
    "OriginalRotationBasis",
    "ContractLevel",
    "Category",
    "Difficulty",
    "Student",
];

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

/// A tag the standard defines (chapter 3, 4 or 5).
pub fn is_known(name: &str) -> bool {
    MANDATORY.contains(&name)
        || SECTION_TAGS.contains(&name)
        || SUPPLEMENTAL.contains(&name)
        || MISC_AND_TABLES.contains(&name)
}
