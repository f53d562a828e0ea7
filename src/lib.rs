//! paperboat: a fast terminal reader for lists of research-paper abstracts.
//!
//! The papers, their search, the reading list and the exports live in the
//! core crate (`paperboat-core`, re-exported here under the same names).
//! This crate is the reader and the command line on top of it. Keys become
//! [`vocabulary::Action`]s through [`keys`]; every change of state is a
//! [`vocabulary::Message`] to [`app::App::update`], the only place state
//! changes; [`ui::draw`] reads the state and never changes it. The
//! non-interactive commands in [`cli`] share the same corpus and search.

pub use paperboat_core::{
    alloc, corpus, export, loading, order, parallel, search, simd, store, sys, text,
};

pub mod app;
pub mod cli;
pub mod config;
pub mod keys;
pub mod terminal;
pub mod ui;
pub mod vocabulary;
