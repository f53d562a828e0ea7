//! The reader's models, learned on the machine from the list itself and
//! the reader's marks: what to read first ([`recommend`]) and what a list
//! is about ([`topics`]). Both read the same TF-IDF rows
//! ([`features`]); nothing here knows of the terminal or the command
//! line. Why the methods are written here rather than taken from a crate
//! is in docs/QUALITY.md, "Recommend and topics".

pub mod features;
pub mod linear;
pub mod recommend;
pub mod topics;

pub use features::{DIM, Features};
pub use linear::{Example, Linear, Loss, Rows};
pub use recommend::{MIN_POSITIVES, Model, Recipe, Resets, Signals, TooFew, Trained, Whose};
pub use topics::{
    Fit, Topic, Topics, default_k, list_topics, topic_features, topic_features_of, topics,
    topics_of,
};
