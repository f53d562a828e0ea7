//! paperboat: a fast terminal reader for lists of research-paper abstracts.
//!
//! The flow runs one way. [`loading`] reads files (or the bundled
//! lists) into a [`corpus::Corpus`], sanitizing every string once. The
//! [`search::Search`] engine matches queries on background threads. Keys
//! become [`vocabulary::Action`]s through [`keys`]; every change of state
//! is a [`vocabulary::Message`] to [`app::App::update`], the only place
//! state changes; [`ui::draw`] reads the state and never changes it.
//! The non-interactive commands in [`cli`] share the same corpus and search.

pub mod alloc;
pub mod app;
pub mod cli;
pub mod config;
pub mod corpus;
pub mod export;
pub mod keys;
pub mod loading;
pub mod order;
pub mod parallel;
pub mod search;
pub mod store;
pub mod terminal;
pub mod text;
pub mod ui;
pub mod vocabulary;
