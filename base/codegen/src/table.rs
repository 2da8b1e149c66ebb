//! What a table is: a name, a doc comment, a shape, an element type and its
//! values; and how the registry says a table is pictured and named.

use crate::Error;

/// The Rust type of a table's entries.
///
/// ```
/// use bitboards_codegen::Element;
///
/// assert_eq!(Element::U16.bytes(), 2);
/// assert_eq!(Element::U64.rust_name(), "u64");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Element {
    /// A bitboard, a magic factor, a key: a `u64`.
    U64,
    /// A compressed entry (the PEXT table's attack sets packed into 16 bits).
    U16,
}

impl Element {
    /// The size of one entry in bytes.
    ///
    /// ```
    /// use bitboards_codegen::Element;
    ///
    /// assert_eq!(Element::U64.bytes(), 8);
    /// ```
    #[must_use]
    pub const fn bytes(self) -> usize {
        match self {
            Element::U64 => 8,
            Element::U16 => 2,
        }
    }

    /// The Rust type's name, as the generated code spells it.
    ///
    /// ```
    /// use bitboards_codegen::Element;
    ///
    /// assert_eq!(Element::U16.rust_name(), "u16");
    /// ```
    #[must_use]
    pub const fn rust_name(self) -> &'static str {
        match self {
            Element::U64 => "u64",
            Element::U16 => "u16",
        }
    }
}

/// How a table is laid out in Rust.
#[derive(Clone, Debug)]
pub(crate) enum Shape {
    /// A single `pub const NAME: T` (a named mask, a shift).
    Word,
    /// `pub static NAME: [T; N]`.
    List,
    /// `pub static NAME: [[T; COLUMNS]; ROWS]`.
    Grid { columns: usize },
    /// `pub static NAME: NameMap` (names to `u64` words, rendered sorted by
    /// name): `keys[i]` maps to `values[i]`.
    Map { keys: Vec<String> },
}

/// One table, computed and documented, ready to render.
#[derive(Clone, Debug)]
pub(crate) struct Table {
    pub(crate) name: &'static str,
    pub(crate) doc: String,
    pub(crate) shape: Shape,
    pub(crate) element: Element,
    /// The entries, row after row, each widened to `u64`.
    pub(crate) values: Vec<u64>,
}

impl Table {
    /// A single named `u64`, rendered as a `pub const`.
    pub(crate) fn word(name: &'static str, doc: impl Into<String>, value: u64) -> Table {
        Table {
            name,
            doc: doc.into(),
            shape: Shape::Word,
            element: Element::U64,
            values: vec![value],
        }
    }

    /// A `pub static` array of `u64`.
    pub(crate) fn list(name: &'static str, doc: impl Into<String>, values: Vec<u64>) -> Table {
        Table {
            name,
            doc: doc.into(),
            shape: Shape::List,
            element: Element::U64,
            values,
        }
    }

    /// A `pub static` array of `u16`: compressed entries.
    pub(crate) fn list_u16(name: &'static str, doc: impl Into<String>, values: Vec<u16>) -> Table {
        Table {
            name,
            doc: doc.into(),
            shape: Shape::List,
            element: Element::U16,
            values: values.into_iter().map(u64::from).collect(),
        }
    }

    /// A `pub static` array of equally long rows of `u64`.
    pub(crate) fn grid(
        name: &'static str,
        doc: impl Into<String>,
        rows: Vec<Vec<u64>>,
    ) -> Result<Table, Error> {
        let columns = rows.first().map_or(0, Vec::len);
        if let Some((row, short)) = rows.iter().enumerate().find(|(_, r)| r.len() != columns) {
            return Err(Error::Table(format!(
                "{name}: row {row} has {} entries, row 0 has {columns}",
                short.len()
            )));
        }
        Ok(Table {
            name,
            doc: doc.into(),
            shape: Shape::Grid { columns },
            element: Element::U64,
            values: rows.concat(),
        })
    }

    /// A `pub static` perfect-hash map from names to `u64`, in the order given.
    pub(crate) fn map(
        name: &'static str,
        doc: impl Into<String>,
        entries: Vec<(String, u64)>,
    ) -> Table {
        let (keys, values) = entries.into_iter().unzip();
        Table {
            name,
            doc: doc.into(),
            shape: Shape::Map { keys },
            element: Element::U64,
            values,
        }
    }

    /// The dimensions, outermost first: `[]` for a word, `[n]` for a list or
    /// a map, `[rows, columns]` for a grid.
    pub(crate) fn dimensions(&self) -> Vec<usize> {
        match &self.shape {
            Shape::Word => Vec::new(),
            Shape::List | Shape::Map { .. } => vec![self.values.len()],
            Shape::Grid { columns } => vec![self.values.len() / columns.max(&1), *columns],
        }
    }

    /// The item's type as Rust spells it: `u64`, `[u16; 107648]`,
    /// `[[u64; 64]; 2]`, `NameMap` (names to `u64`).
    pub(crate) fn rust_type(&self) -> String {
        let element = self.element.rust_name();
        match &self.shape {
            Shape::Word => element.to_string(),
            Shape::List => format!("[{element}; {}]", self.values.len()),
            Shape::Grid { columns } => format!(
                "[[{element}; {columns}]; {}]",
                self.values.len() / columns.max(&1)
            ),
            Shape::Map { .. } => "NameMap".to_string(),
        }
    }

    /// Its size in memory, in bytes (a map entry is a `(&str, T)` pair).
    pub(crate) fn bytes(&self) -> usize {
        let per_entry = match (&self.shape, self.element) {
            (Shape::Map { .. }, Element::U64) => std::mem::size_of::<(&str, u64)>(),
            (Shape::Map { .. }, Element::U16) => std::mem::size_of::<(&str, u16)>(),
            _ => self.element.bytes(),
        };
        self.values.len() * per_entry
    }

    /// The first paragraph of the doc comment: what the table is, without
    /// its example.
    pub(crate) fn summary(&self) -> &str {
        self.doc.split("\n\n").next().unwrap_or_default()
    }
}

/// How the snapshot test pictures a table, so that a change to it is reviewed
/// as pictures (`cargo insta review`). Each registry entry names one.
///
/// ```
/// use bitboards_codegen::{Destination, Options, Picture, run};
///
/// let report = run(&Options::new(Destination::Memory)).unwrap();
/// let knight = report.tables().find(|t| t.name == "KNIGHT_ATTACKS").unwrap();
/// assert_eq!(knight.picture, Picture::PerSquare);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Picture {
    /// One diagram per entry, labelled `"{caption} {index}"`: `"file a"`,
    /// `"rank 1"`, `"diagonal 0"`.
    Diagrams {
        /// The label's first word(s).
        caption: &'static str,
        /// How an entry's position is written in its label.
        index: Index,
    },
    /// One diagram per square, labelled with the square (`"e4"`).
    PerSquare,
    /// Rows White then Black, each one diagram per square; one picture per
    /// colour, named `{table}_{colour}`.
    PerColorAndSquare,
    /// A 64 x 64 table by pairs of squares: a dozen representative pairs as
    /// diagrams, then the number of entries, of non-empty ones, and a digest.
    SquarePairs,
    /// A slider's per-square rows `[mask, second, offset]`: the mask as a
    /// diagram, labelled `"{piece} {square}: {second} 0x.., offset n"` (with
    /// `", shift s"` before the offset when `shift` is given).
    SliderRows {
        /// `"rook"` or `"bishop"`.
        piece: &'static str,
        /// What the row's middle column holds (`"factor"`, `"rays"`).
        second: &'static str,
        /// The piece's one shift, shown in every label.
        shift: Option<u32>,
    },
    /// A named region: one labelled diagram in the picture of all regions
    /// (`named_regions`).
    Region,
    /// A single number, as text.
    Number,
    /// The name registry: every name and its bitboard, sorted by name.
    Names,
    /// Too big to look at: entries, bytes and an FNV-1a digest of the values
    /// (each widened to a little-endian `u64`).
    Digest,
}

/// How an entry's position in a list is written: in a picture's labels and in
/// the names a table gives to the name registry.
///
/// ```
/// use bitboards_codegen::Index;
///
/// assert_eq!(Index::File.label(4), "e");
/// assert_eq!(Index::Rank.label(0), "1");
/// assert_eq!(Index::Number.label(14), "14");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Index {
    /// Files: 0 is `a`, 7 is `h`.
    File,
    /// Ranks: 0 is `1`, 7 is `8`.
    Rank,
    /// The number itself.
    Number,
}

impl Index {
    /// Entry `position`'s label.
    ///
    /// ```
    /// use bitboards_codegen::Index;
    ///
    /// assert_eq!(Index::File.label(0), "a");
    /// ```
    #[must_use]
    pub fn label(self, position: usize) -> String {
        match self {
            Index::File => char::from(b'a' + (position % 8) as u8).to_string(),
            Index::Rank => (position + 1).to_string(),
            Index::Number => position.to_string(),
        }
    }
}

/// What a table gives to the name registry (`Bitboard::from_name`) and to the
/// runtime's `masks` module.
///
/// ```
/// use bitboards_codegen::{Destination, Naming, Options, run};
///
/// let report = run(&Options::new(Destination::Memory)).unwrap();
/// let center = report.tables().find(|t| t.name == "CENTER").unwrap();
/// assert_eq!(center.naming, Naming::Region);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Naming {
    /// Nothing: the table has no name of its own in the registry.
    None,
    /// Entry `i` is named `prefix` + `index.label(i)`: `"file_a"`.
    Indexed {
        /// The names' common start.
        prefix: &'static str,
        /// How the position is written.
        index: Index,
    },
    /// A named region (a single word): named by its table name in lower case
    /// (`"center"`), and a `Bitboard` constant in `bitboards::masks`.
    Region,
}
