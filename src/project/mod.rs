pub mod lock;
pub mod state;
