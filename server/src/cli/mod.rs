pub mod check;
pub mod dump;
pub mod explain;
pub mod files;
pub mod render;
