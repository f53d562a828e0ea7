//! Every integration test, linked into one binary: one build and one link
//! for all of them, and their tests run side by side. Each module is one
//! area, as a user meets it (the real binary in a pipe or a
//! pseudo-terminal, files from tests/data); `common` holds the helpers.

mod cache;
mod citizen;
mod cli;
mod common;
mod conformance;
mod fetch;
mod fields;
mod formats;
mod hostile;
mod ids;
mod layers;
mod marks;
mod markup;
mod reader_pty;
mod recommend;
mod records;
mod related;
mod roundtrip;
mod safety;
mod screen;
mod state;
mod triage_cli;
