//! Parsers for tag values that have a syntax in PBN 2.1 (Deal, Contract,
//! Result, Date, …). The grammar keeps tag values as opaque strings; these
//! functions parse them and report problems with ranges inside the value.
