//! The word index and the cache: an index read back from the cache is
//! handed to the matcher as it arrives; one built here, once complete, is
//! offered to be stored there ([`Effect::StoreIndex`]), once.

use super::App;
use crate::search::WordIndex;
use crate::vocabulary::Effect;

impl App {
    /// Takes a word index read back from the cache (over every paper of
    /// the file): nothing is left to index.
    pub(super) fn take_index(&mut self, index: WordIndex) {
        self.search.install_index(index);
        self.index_stored = true;
    }

    /// Once every paper is in and indexed, asks (once) for the index to
    /// be stored for the next open.
    pub(super) fn offer_index(&mut self) {
        if self.index_stored || self.loading.is_some() || self.corpus.is_empty() {
            return;
        }
        let (indexed, papers) = self.search.indexed();
        if indexed < papers {
            return;
        }
        self.index_stored = true;
        self.effects
            .push(Effect::StoreIndex(self.search.index_handle()));
    }
}
