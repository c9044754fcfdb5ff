//! A document edited by address: the native syntax through
//! [`hclwright::Document`], the JSON syntax through
//! [`hclwright::json::JsonDocument`], as `hclwright get|set|rm|mv|block`
//! edit them. Every fallible method runs under [`crate::guard`].

use hclwright::json::JsonDocument;
use hclwright::{Address, Item, Placement};

use crate::error::{Error, ErrorKind, Result};

/// A parsed file under edit.
pub enum Document {
    /// The native syntax.
    Native(Box<hclwright::Document>),
    /// The JSON syntax (`.tf.json`).
    Json(Box<JsonDocument>),
}

/// An item of a body, as the iteration helpers list it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The block type or attribute name.
    pub name: String,
    /// A block's labels (empty for an attribute).
    pub labels: Vec<String>,
    /// Its address, usable with get/set/remove.
    pub address: String,
    /// An attribute's value source text (`None` for a block).
    pub value: Option<String>,
}

impl Document {
    /// Parses `text` (as the JSON syntax when `json`).
    pub fn parse(text: &str, json: bool) -> Result<Document> {
        crate::error::guard(|| {
            if json {
                JsonDocument::parse(text)
                    .map(|d| Document::Json(Box::new(d)))
                    .map_err(|errors| Error::syntax(&errors))
            } else {
                hclwright::Document::parse(text)
                    .map(|d| Document::Native(Box::new(d)))
                    .map_err(|e| Error::syntax(e.errors()))
            }
        })
    }

    /// The source texts of what `address` designates (several with `*`);
    /// empty when nothing matches.
    pub fn get_all(&self, address: &str) -> Result<Vec<String>> {
        crate::error::guard(|| {
            let found = match self {
                Document::Native(d) => d.get_texts(Address::parse(address)?),
                Document::Json(d) => d.get_all(address),
            };
            match found {
                Ok(texts) => Ok(texts),
                Err(e) if e.is_not_found() => Ok(Vec::new()),
                Err(e) => Err(e.into()),
            }
        })
    }

    /// The source text of what `address` designates, `None` when nothing
    /// does; an address matching several items is an error.
    pub fn get(&self, address: &str) -> Result<Option<String>> {
        crate::error::guard(|| {
            let mut all = self.get_all(address)?;
            if all.len() > 1 {
                return Err(Error::new(
                    ErrorKind::Edit,
                    format!(
                        "`{address}` matches {} items: use get_all for several",
                        all.len()
                    ),
                ));
            }
            Ok(all.pop())
        })
    }

    /// Sets `address` to `source` (HCL source), creating what is missing,
    /// as `hclwright set` does.
    pub fn set(&mut self, address: &str, source: &str) -> Result<()> {
        crate::error::guard(|| {
            match self {
                Document::Native(d) => {
                    let value = hclwright::EditValue::parse(source)?;
                    d.set_with(address, value, Placement::Default)?;
                }
                Document::Json(d) => d.set_with(address, source, Placement::Default)?,
            }
            Ok(())
        })
    }

    /// Removes what `address` designates; false when nothing does.
    pub fn remove(&mut self, address: &str) -> Result<bool> {
        crate::error::guard(|| {
            let removed = match self {
                Document::Native(d) => d.remove(address),
                Document::Json(d) => d.remove(address),
            };
            match removed {
                Ok(()) => Ok(true),
                Err(e) if e.is_not_found() => Ok(false),
                Err(e) => Err(e.into()),
            }
        })
    }

    /// Renames what `address` designates, as `hclwright mv` does.
    pub fn rename(&mut self, address: &str, new_name: &str) -> Result<()> {
        crate::error::guard(|| {
            match self {
                Document::Native(d) => d.mv(address, new_name)?,
                Document::Json(d) => {
                    let name = hclwright::document::mv_name(&Address::parse(address)?, new_name)?;
                    d.rename(address, &name)?;
                }
            }
            Ok(())
        })
    }

    /// Appends an empty block `block_type` with `labels` to the body at
    /// `parent` (`""` for the top level), as `hclwright block append`.
    pub fn append_block(&mut self, parent: &str, block_type: &str, labels: &[&str]) -> Result<()> {
        crate::error::guard(|| {
            match self {
                Document::Native(d) => d.append_block(parent, block_type, labels, "")?,
                Document::Json(d) => d.append_block(parent, block_type, labels, "")?,
            }
            Ok(())
        })
    }

    /// The whole text, edits applied.
    pub fn text(&self) -> String {
        match self {
            Document::Native(d) => d.text(),
            Document::Json(d) => d.text().to_string(),
        }
    }

    /// A unified diff from the parsed text to the current one, `path` in
    /// its headers (empty when nothing changed).
    pub fn diff(&self, path: &str) -> String {
        match self {
            Document::Native(d) => d.unified_diff(path),
            Document::Json(d) => d.unified_diff(path),
        }
    }

    /// The items of the body at `address` (`""`: the top level), as
    /// entries, with whether each is a block.
    fn entries(&self, address: &str) -> Result<Vec<(bool, Entry)>> {
        match self {
            Document::Native(d) => {
                let (parent, items) = native_items(d, address)?;
                Ok(items
                    .iter()
                    .map(|i| (matches!(i, Item::Block(_)), native_entry(&parent, i)))
                    .collect())
            }
            Document::Json(d) => Ok(d
                .items(address)?
                .into_iter()
                .map(|i| {
                    let block = i.is_block();
                    let entry = Entry {
                        name: i.name,
                        labels: i.labels,
                        address: i.address,
                        value: i.value,
                    };
                    (block, entry)
                })
                .collect()),
        }
    }

    /// The blocks of the body at `address` (`""`: the top level), of
    /// `block_type` when given.
    pub fn blocks(&self, address: &str, block_type: Option<&str>) -> Result<Vec<Entry>> {
        crate::error::guard(|| {
            Ok(self
                .entries(address)?
                .into_iter()
                .filter(|(block, e)| *block && block_type.is_none_or(|t| e.name == t))
                .map(|(_, e)| e)
                .collect())
        })
    }

    /// The attributes of the body at `address` (`""`: the top level).
    pub fn attributes(&self, address: &str) -> Result<Vec<Entry>> {
        crate::error::guard(|| {
            Ok(self
                .entries(address)?
                .into_iter()
                .filter(|(block, _)| !block)
                .map(|(_, e)| e)
                .collect())
        })
    }
}

/// The items of the body at `address` (`""`: the top level) of a native
/// document.
fn native_items(d: &hclwright::Document, address: &str) -> Result<(Address, Vec<Item>)> {
    let parent = if address.is_empty() {
        Address::new(Vec::new())
    } else {
        Address::parse(address)?
    };
    let items = if address.is_empty() {
        d.items().map(|i| Item::from_body_item(&i)).collect()
    } else {
        let mut found = d.get_all(&parent)?;
        if found.len() != 1 {
            return Err(Error::new(
                ErrorKind::Edit,
                format!("`{address}` matches {} items, not one block", found.len()),
            ));
        }
        match found.pop() {
            Some(Item::Block(b)) => b
                .body()
                .map(|body| body.items().map(|i| Item::from_body_item(&i)).collect())
                .unwrap_or_default(),
            _ => {
                return Err(Error::new(
                    ErrorKind::Edit,
                    format!("`{address}` is not a block"),
                ));
            }
        }
    };
    Ok((parent, items))
}

/// An item of a native document as an entry.
fn native_entry(parent: &Address, item: &Item) -> Entry {
    let name = item.name().unwrap_or_default();
    let labels = item.labels();
    let mut steps = parent.steps().to_vec();
    steps.push(hclwright::document::Step::Name(name.clone()));
    steps.extend(labels.iter().cloned().map(hclwright::document::Step::Name));
    Entry {
        name,
        labels,
        address: Address::new(steps).to_string(),
        value: match item {
            Item::Block(_) => None,
            other => other.value_text(),
        },
    }
}
