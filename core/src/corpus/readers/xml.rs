//! What the XML readers share (arXiv's Atom, RSS and OAI-PMH): a walk
//! over a feed's events that survives malformed XML, one item at a time,
//! and the decoding of entity and character references.
//!
//! A reader says what to do with each start tag, end tag and piece of
//! text ([`Items`]); [`read_items`] drives quick-xml over the text and,
//! where the XML breaks, reports the line as skipped and reads on from
//! the next start tag of an item (`<entry`, `<item`, `<record`, any
//! prefix), so that a malformed item costs itself alone.

use quick_xml::escape::resolve_xml_entity;
use quick_xml::events::{BytesRef, BytesStart, Event};
use quick_xml::name::ResolveResult;
use quick_xml::reader::{NsReader, Reader};

/// A reader of the items of an XML feed, driven by [`read_items`].
pub(super) trait Items {
    /// An element starts at byte `pos` of the text (an empty element
    /// starts, then ends). `ns` is its namespace as declared so far.
    fn start(&mut self, e: &BytesStart, ns: &ResolveResult, pos: usize);

    /// The element at the current depth ends.
    fn end(&mut self);

    /// Where text goes now, if anywhere.
    fn buffer(&mut self) -> Option<&mut String>;

    /// The line of the item being read, if one is.
    fn open_item(&self) -> Option<usize>;

    /// Forgets the place (depth, the item and text being read): the
    /// reading starts again at an item.
    fn restart(&mut self);

    /// Reports a line that could not be read, and why.
    fn skip(&mut self, line: usize, reason: String);

    /// The 1-based line of byte `pos` of the text.
    fn line(&mut self, pos: usize) -> usize;

    /// Whether elements need their namespaces: a reader that tells
    /// elements by their local names alone (OAI-PMH) says no, and is
    /// read without resolving them, every start tag's attributes left
    /// unread for declarations (`ns` is then always unbound).
    fn namespaces(&self) -> bool {
        true
    }
}

/// quick-xml's reader, resolving namespaces or not.
enum Xml<'a> {
    Resolving(NsReader<&'a [u8]>),
    Plain(Reader<&'a [u8]>),
}

impl<'a> Xml<'a> {
    fn new(text: &'a str, resolve: bool, check_end_names: bool) -> Xml<'a> {
        let mut xml = if resolve {
            Xml::Resolving(NsReader::from_str(text))
        } else {
            Xml::Plain(Reader::from_str(text))
        };
        let config = match &mut xml {
            Xml::Resolving(r) => r.config_mut(),
            Xml::Plain(r) => r.config_mut(),
        };
        // A stray `&` in text is kept as written rather than ending the feed.
        config.allow_dangling_amp = true;
        config.check_end_names = check_end_names;
        xml
    }

    fn read(&mut self) -> quick_xml::Result<(ResolveResult<'_>, Event<'a>)> {
        match self {
            Xml::Resolving(r) => r.read_resolved_event(),
            Xml::Plain(r) => r.read_event().map(|e| (ResolveResult::Unbound, e)),
        }
    }

    fn reader(&self) -> &Reader<&'a [u8]> {
        match self {
            Xml::Resolving(r) => r,
            Xml::Plain(r) => r,
        }
    }
}

/// Appends the text an entity or character reference stands for; an
/// unknown entity is kept as written (`&nbsp;`).
pub(super) fn push_reference(text: &mut String, r: &BytesRef) {
    match r.resolve_char_ref() {
        Ok(Some(c)) => text.push(c),
        Ok(None) => match resolve_xml_entity(r) {
            Some(s) => text.push_str(s),
            None => {
                text.push('&');
                text.push_str(r);
                text.push(';');
            }
        },
        // A reference to no character (`&#0;`, `&#xD800;`): dropped.
        Err(_) => {}
    }
}

/// Reads `text` into `reader`, item by item; `item` is the local name of
/// an item's element, which the messages call it by.
pub(super) fn read_items(text: &str, item: &str, reader: &mut impl Items) {
    let mut from = Some(0);
    while let Some(start) = from {
        from = read_from(text, item, reader, start);
    }
}

/// The offset of the next start tag of `item` (any prefix) at or after
/// `from`.
fn next_item(text: &str, item: &str, from: usize) -> Option<usize> {
    let b = text.as_bytes();
    let mut at = from;
    while let Some(k) = memchr::memchr(b'<', b.get(at..)?) {
        let tag = at + k;
        let name_end = b[tag + 1..]
            .iter()
            .position(|c| !(c.is_ascii_alphanumeric() || matches!(c, b':' | b'_' | b'-' | b'.')))
            .map_or(b.len(), |n| tag + 1 + n);
        let name = &b[tag + 1..name_end];
        let local = name.rsplit(|&c| c == b':').next().unwrap_or(name);
        if local == item.as_bytes() && name_end < b.len() {
            return Some(tag);
        }
        at = tag + 1;
    }
    None
}

/// Reads from byte `start` (0, or an item after an error); where to read
/// on from when an error cuts the reading short. Past the start, the
/// feed's namespace declarations are not seen (a reader takes an unbound
/// prefix for its usual one), and end tags are not checked against start
/// tags the reading never saw.
fn read_from(text: &str, item: &str, reader: &mut impl Items, start: usize) -> Option<usize> {
    let mut xml = Xml::new(&text[start..], reader.namespaces(), start == 0);
    reader.restart();
    loop {
        let pos =
            start + usize::try_from(xml.reader().buffer_position()).unwrap_or(usize::MAX - start);
        let (ns, event) = match xml.read() {
            Ok(found) => found,
            Err(e) => {
                let position = xml.reader().error_position();
                let at = start.saturating_add(usize::try_from(position).unwrap_or(usize::MAX));
                let line = reader.line(at);
                // The next item after the one the error is in (or, when it
                // is in none, after the error).
                let next = next_item(text, item, at.max(pos).min(text.len()).max(start + 1));
                let open = reader.open_item();
                if start > 0 && open.is_none() && next.is_none() {
                    // Past the last item read after an error: the feed's
                    // own end tags, whose start tags this reading never
                    // saw. Nothing is lost.
                    return None;
                }
                let lost = match (open, next) {
                    (Some(l), Some(_)) => format!("the {item} from line {l} was not read"),
                    (Some(l), None) => format!("the {item} from line {l} on was not read"),
                    (None, Some(_)) => format!("read on from the next {item}"),
                    (None, None) => "the rest was not read".to_string(),
                };
                reader.skip(line, format!("malformed XML: {e}; {lost}"));
                return next;
            }
        };
        match event {
            Event::Start(e) => reader.start(&e, &ns, pos),
            Event::Empty(e) => {
                reader.start(&e, &ns, pos);
                reader.end();
            }
            Event::End(_) => reader.end(),
            Event::Text(t) => {
                if let Some(buf) = reader.buffer() {
                    buf.push_str(&t);
                }
            }
            Event::CData(t) => {
                if let Some(buf) = reader.buffer() {
                    buf.push_str(&t);
                }
            }
            Event::GeneralRef(r) => {
                if let Some(buf) = reader.buffer() {
                    push_reference(buf, &r);
                }
            }
            Event::Eof => {
                if let Some(line) = reader.open_item() {
                    reader.skip(line, format!("the feed ends inside this {item} (not read)"));
                }
                return None;
            }
            _ => {}
        }
    }
}
