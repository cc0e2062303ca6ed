//! LIN ↔ PBN. LIN is the format of BBO hand records and movies: a flat
//! sequence of `xx|value|` pairs, a two-letter key then a value, each
//! closed by `|`.
//!
//! BBO never published a specification of LIN. The rules below come from
//! the public descriptions, each cited where it is used:
//! - \[forum-19814]: the BBO forums thread ".lin file format structure"
//!   (2007), with a three-board sample (`vg rs pw mp bn pg qx pn st md rh
//!   ah sv mb pc mc`);
//! - \[forum-85366]: the BBO forums thread "Lin file format" (2021): the
//!   "container" `qx|o1|md|3…|rh||ah|Board 1|sv|0|pg||`, hands in the order
//!   South, West, North, East after the dealer digit;
//! - \[bridgedata]: Søren Hein's BridgeData reader `fileLIN.cpp`: the label
//!   table (`vg` title, `rs` results, `pw` players, `mp` scores, `bn`
//!   boards, `qx` board number, `pn` players, `md` deal, `sv` vulnerable,
//!   `mb` auction, `pc` play, `mc` result; `pf pg st rh ah nt` ignored,
//!   `nt` being chat), `an` as the explanation of the previous call, `%`
//!   lines as comments, a new board at each `qx`.
//!
//! The reader is liberal: unknown pairs are kept as PBN comments (with a
//! warning), malformed ones get a [`ReadDiagnostic`] with their byte range.
//! The writer reports per game what LIN cannot hold as [`Loss`]es.
//!
//! `pairs.rs` splits LIN into pairs and says where a board starts (the
//! reader and the writer's check share it); `read.rs` is the reader (LIN →
//! PBN), `write.rs` the writer (PBN → LIN).
//!
//! [`ReadDiagnostic`]: crate::convert::ReadDiagnostic
//! [`Loss`]: crate::convert::Loss

mod pairs;
mod read;
mod write;

pub use read::to_pbn;
pub use write::{from_pbn, from_pbn_games};

use crate::bridge::Seat;

/// LIN's seat order in `pn` and `md`: South, West, North, East; the `md`
/// dealer digit is 1-based in this order \[forum-85366].
const LIN_SEATS: [Seat; 4] = [Seat::South, Seat::West, Seat::North, Seat::East];

/// The tags a LIN board holds (through `vg pn md sv ah qx mb pc mc`).
/// Declarer, Contract and Result are derived from `mb`, `pc` and `mc`.
pub const HELD_TAGS: [&str; 16] = [
    "Event",
    "Board",
    "Room",
    "West",
    "North",
    "East",
    "South",
    "Dealer",
    "Vulnerable",
    "Deal",
    "Declarer",
    "Contract",
    "Result",
    "HomeTeam",
    "VisitTeam",
    "Note",
];
