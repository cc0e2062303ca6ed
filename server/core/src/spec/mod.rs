//! PBN's vocabulary: the words of the standard that every layer above
//! (model, rules, formatter, language server) shares. Nothing here depends
//! on another module of the crate.

pub mod tags;
