//! paperboat's core: lists of research papers read from every format a
//! researcher exports or a source serves, searched, kept and written out.
//! Nothing here knows a terminal or a command line (its Cargo.toml names
//! no ratatui, crossterm or clap); the `paperboat` crate, the reader and
//! its commands, is built on it.
//!
//! The flow runs one way. [`loading`] reads files (or the bundled lists)
//! into a [`corpus::Corpus`], sanitizing every string once, through the
//! readers of [`corpus`] and the cache of large files. The
//! [`search::Search`] engine matches queries on background threads;
//! [`order`] sorts what it lists. [`store`] keeps the reader's marks in
//! state.json; [`export`] writes reading lists out. [`text`] holds what
//! every layer shares: sanitizing, markup, wrapping. docs/ARCHITECTURE.md
//! draws the layers, lowest last; `tests/it/layers.rs` keeps their order.

pub mod alloc;
pub mod corpus;
pub mod export;
pub mod loading;
pub mod order;
pub mod parallel;
pub mod search;
pub mod simd;
pub mod store;
pub mod sys;
pub mod text;
