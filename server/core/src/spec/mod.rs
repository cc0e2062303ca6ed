//! PBN's vocabulary: the words of the standard that every layer above
//! (model, rules, formatter, language server) shares. Nothing here depends
//! on another module of the crate; `bridge` maps the plain values used
//! here to its own types.

pub mod calls;
pub mod cards;
pub mod seats;
pub mod sections;
pub mod tags;
