//! Server → client notifications.

pub mod diagnostics;
