//! RBN 2.2 ↔ PBN.
//!
//! RBN (Richard Pavlicek's "Rec.Bridge Notation", version 2.2, 2005) keeps a
//! deal as lines `<label> <data>`, labels `T D L E S F K N B H A C P R I M`,
//! notes `1`–`9`, free-text paragraphs `{…}` and `%` lines; a deal ends at an
//! empty line. Section names below ("RBN Labels and Structure", "Detailed
//! Explanation of Labels", "General Database Rules", "File Signature and
//! Limits") are those of the RBN document; `§` numbers are PBN 2.1's.
//!
//! Mapping (RBN label → PBN tags):
//! - `T title:author` → `Description`, `Annotator` (§4.1.3, §4.7.1);
//! - `D yyyymmdd:hhmmss` → `Date` (§3.4.3), `Time` (§4.5.1);
//! - `L` → `Site` (§3.4.2); `E` → `Event` (§3.4.1); `S` → `Stage` (§4.4.6);
//! - `F` → `Scoring` (§3.4.12); `K home:visit` → `HomeTeam`, `VisitTeam`
//!   (§4.4.3, §4.4.8);
//! - `N north+south:west+east:room` → `North` … `West` (§3.4.5), `Room`
//!   (§4.1.7) or `Table` (§4.4.7);
//! - `B board:section` → `Board` (§3.4.4), `Section` (§4.4.5);
//! - `H` → `Deal` (§3.4.11, end positions §3.10) and `Hidden` (§4.1.6);
//! - `A` → `Dealer`, `Vulnerable` (§3.4.9, §3.4.10) and the auction section
//!   (§3.5) with its notes (§3.5.4); `C` → `Contract`, `Declarer`; `P` → the
//!   play section (§3.6); `R` → `Result` (§3.4.15), `Score`, `ScoreIMP`,
//!   `ScorePercentage` (§4.2);
//! - `M` double-dummy makes → `OptimumResultTable` (§5.7); its tricks after
//!   the lead, `I` (awards) and the parts of other labels PBN has no tag for
//!   are kept as commentary `{RBN <label> <data>}` (§3.8), which the writer
//!   turns back into the label.
//!
//! The reader (RBN → PBN) is `read.rs` (deals, repeated labels, the PBN
//! game, L E S I), `read_tags.rs` (T D F K N B R) and `read_play.rs` (H A C P);
//! the writer (PBN → RBN) is `write.rs` (losses, paragraphs, the labels in
//! order), `write_tags.rs` and `write_play.rs` likewise; `makes.rs` holds
//! M both ways. The labels and values both directions share are here.

mod makes;
mod read;
mod read_play;
mod read_tags;
mod write;
mod write_play;
mod write_tags;

pub use read::to_pbn;
pub use write::{from_pbn, from_pbn_games};

/// The ten labels that repeat when a deal does not state them ("RBN
/// Labels and Structure": "The first 10 labels (TDLESFKNBH) repeat
/// automatically if unstated").
const REPEATING: &[u8; 10] = b"TDLESFKNBH";
/// All sixteen labels, in the output order of "General Database Rules".
const LABELS: &[u8; 16] = b"TDLESFKNBHACPRIM";

/// The six notations after a call or card ("Detailed Explanation of
/// Labels", A and P), in PBN's suffix order (§3.5.3).
const NOTATIONS: [&str; 6] = ["!", "?", "!!", "??", "!?", "?!"];

/// The F abbreviations ("Detailed Explanation of Labels", F) and their
/// Scoring values (§3.4.12; T, X and P have no basic PBN name).
const SCORING: [(&str, &str); 10] = [
    ("I", "IMP"),
    ("B", "BAM"),
    ("T", "TotalPoints"),
    ("X", "IMPPairs"),
    ("M", "MP"),
    ("N", "Instant"),
    ("R", "Rubber"),
    ("C", "Chicago"),
    ("A", "Cavendish"),
    ("P", "PlusOrFishfood"),
];

/// A number as PBN writes it: no fraction when whole, else two places at
/// most.
fn number(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{}", v as i64)
    } else {
        let s = format!("{v:.2}");
        s.trim_end_matches('0').to_string()
    }
}
