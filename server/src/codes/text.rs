//! Diagnostic codes of this group (see the table in codes/mod.rs).

use super::codes;

codes! {
}
