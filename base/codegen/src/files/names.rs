//! `names.rs`: the name registry, a map from names to bitboards sorted by
//! name, built from the squares and from every table the registry names.

use super::example;
use crate::Error;
use crate::geometry::{bit, coords, square_name};
use crate::inputs::Inputs;
use crate::table::{Naming, Table};

pub(crate) fn about(_: &Inputs) -> String {
    "The name registry: square and mask names to bitboards.".into()
}

pub(crate) fn names(inputs: &Inputs) -> Result<Table, Error> {
    let mut entries: Vec<(String, u64)> = (0..64)
        .map(|index| {
            let (file, rank) = coords(index);
            (square_name(index), bit(file, rank).unwrap_or(0))
        })
        .collect();
    // Every table that names its entries, in registry order; the registry
    // says which (no table is looked up by name here).
    for &(build, naming) in &inputs.named {
        let table = build(inputs)?;
        match naming {
            Naming::None => {}
            Naming::Indexed { prefix, index } => entries.extend(
                table
                    .values
                    .iter()
                    .enumerate()
                    .map(|(i, &value)| (format!("{prefix}{}", index.label(i)), value)),
            ),
            Naming::Region => {
                let [value] = table.values[..] else {
                    return Err(Error::Table(format!(
                        "{}: a named region is one word, not {} entries",
                        table.name,
                        table.values.len()
                    )));
                };
                entries.push((table.name.to_lowercase(), value));
            }
        }
    }
    entries.push(("empty".into(), 0));
    entries.push(("full".into(), !0));
    if let Some(name) = duplicate(&entries) {
        return Err(Error::Table(format!(
            "NAMES: the name {name:?} is given twice"
        )));
    }
    Ok(Table::map(
        "NAMES",
        format!(
            "Every name [`Bitboard::from_name`](crate::FromName::from_name) knows: the squares\n(`\"e4\"`), `\"file_a\"`..`\"file_h\"`, `\"rank_1\"`..`\"rank_8\"`, the named regions in\nlower case (`\"light_squares\"`, `\"center\"`, ...), `\"empty\"` and `\"full\"`.{}",
            example(
                "use bitboards::tables::NAMES;\nassert_eq!(NAMES.get(\"e4\"), Some(&(1 << 28)));\nassert_eq!(NAMES.get(\"file_a\"), Some(&0x0101_0101_0101_0101));"
            )
        ),
        entries,
    ))
}

/// The first name that appears twice: a map cannot hold it.
fn duplicate(entries: &[(String, u64)]) -> Option<&str> {
    let mut names: Vec<&str> = entries.iter().map(|(name, _)| name.as_str()).collect();
    names.sort_unstable();
    names.windows(2).find(|w| w[0] == w[1]).map(|w| w[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_duplicate_name_is_found() {
        let entries = [("a".into(), 1), ("b".into(), 2), ("a".into(), 3)];
        assert_eq!(duplicate(&entries), Some("a"));
        assert_eq!(duplicate(&entries[..2]), None);
    }
}
