//! Text from corpora: made safe at load ([`sanitize`]), read for its light
//! markup ([`markup`], with the tables in [`symbols`]; its links in
//! [`links`]) and wrapped to a width by display columns ([`wrap`]). Nothing here knows about the screen; the UI
//! and the CLI both print what these functions return. Each of these reads
//! its input in time linear in it, whatever the input, and counts the work
//! it does ([`work`]) so that tests can hold it to that.

pub mod links;
pub mod markup;
pub mod sanitize;
pub mod symbols;
pub mod work;
pub mod wrap;

pub use markup::{Emphasis, Rich, Span};
