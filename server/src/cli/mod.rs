//! The subcommands of the `pbn` binary, one file each. Output goes through
//! [`out`] (`outln!`, `out!`, `errln!`), never `println!`: see there why.

/// `println!` to standard output through [`out::stdout`].
macro_rules! outln {
    ($($arg:tt)*) => {{
        let mut s = format!($($arg)*);
        s.push('\n');
        $crate::cli::out::stdout(s.as_bytes());
    }};
}

/// `print!` to standard output through [`out::stdout`].
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::out::stdout(format!($($arg)*).as_bytes())
    };
}

/// `eprintln!` to standard error through [`out::stderr`].
macro_rules! errln {
    ($($arg:tt)*) => {{
        let mut s = format!($($arg)*);
        s.push('\n');
        $crate::cli::out::stderr(s.as_bytes());
    }};
}

pub mod check;
pub mod config;
pub mod convert;
pub mod dd;
pub mod dump;
pub mod explain;
pub mod files;
pub mod fix;
pub mod fmt;
pub mod html;
pub mod lsp;
pub mod out;
pub mod progress;
pub mod render;
pub mod report;
pub mod score;
pub mod show;
pub mod write;
