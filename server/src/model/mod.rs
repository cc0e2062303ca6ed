//! The typed semantic model of a PBN document (placeholder; being written).

pub mod values;
