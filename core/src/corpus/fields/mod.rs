//! The fields every format writes in its own way: arXiv ids, DOIs,
//! OpenReview forum ids, years and author names.
//!
//! Each reader finds where its format keeps a field; what a value there
//! means is decided here, once, so that one paper gets one id whichever
//! format it came in. The rules are those the readers used, made one:
//! where they differed, the stricter reading of free text and the wider
//! reading of a field meant for the value are kept as two functions
//! ([`doi`] and [`doi_in_text`], [`arxiv_in`] and [`arxiv_in_text`]).

mod arxiv;
mod doi;
mod names;
mod openreview;
mod person;
mod year;

pub use arxiv::{arxiv_in, arxiv_in_text, arxiv_key, arxiv_year, is_arxiv_id, strip_arxiv_prefix};
pub use doi::{doi, doi_in_text, doi_key, doi_link};
pub use names::{Split, ordered_name, split_list_cell, split_name_cell, split_names, split_top};
pub use openreview::{forum_in, forum_of, is_forum_id};
pub use person::Name;
pub use year::{plausible_year, year_in};
