pub mod check;
pub mod explain;
pub mod files;
pub mod render;
